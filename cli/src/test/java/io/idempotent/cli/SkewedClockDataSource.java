package io.idempotent.cli;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Set;
import javax.sql.DataSource;

/**
 * A real connection to a test store whose clock is off by whole hours, as a database server on
 * another host can be: every {@code CURRENT_TIMESTAMP} the runtime sends (the store's only clock:
 * leases, grants, "now" in every guard) is read as {@code CURRENT_TIMESTAMP} plus the skew. For
 * tests that must tell what the database decides from what the JVM's clock would say.
 */
final class SkewedClockDataSource {

    private static final Set<String> SQL_METHODS = Set.of("prepareStatement", "prepareCall", "nativeSQL", "execute",
            "executeQuery", "executeUpdate", "executeLargeUpdate", "addBatch");

    private SkewedClockDataSource() {
    }

    /** A data source on {@code store} whose clock is {@code hours} ahead (negative: behind). */
    static DataSource of(Stores.Store store, int hours) {
        String now = "(CURRENT_TIMESTAMP " + (hours < 0 ? "-" : "+") + " INTERVAL '" + Math.abs(hours) + "' HOUR)";
        InvocationHandler source = (proxy, method, args) -> switch (method.getName()) {
            case "getConnection" -> wrap(Connection.class, DriverManager.getConnection(store.url(), store.user(),
                    store.password()), now);
            case "getLoginTimeout" -> 0;
            case "isWrapperFor" -> false;
            case "toString" -> "database clock " + hours + " h off on " + store.url();
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            default -> null; // log writer, login timeout: the driver's defaults
        };
        return (DataSource) Proxy.newProxyInstance(SkewedClockDataSource.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, source);
    }

    /** {@code real} with the clock of every SQL text it is given shifted; statements it makes are wrapped too. */
    private static <T> T wrap(Class<T> type, T real, String now) {
        return type.cast(Proxy.newProxyInstance(SkewedClockDataSource.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> {
                    if (args != null && args.length > 0 && args[0] instanceof String sql
                            && SQL_METHODS.contains(method.getName())) {
                        args[0] = sql.replace("CURRENT_TIMESTAMP", now);
                    }
                    Object result;
                    try {
                        result = method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (result instanceof CallableStatement call && method.getReturnType() == CallableStatement.class) {
                        return wrap(CallableStatement.class, call, now);
                    }
                    if (result instanceof PreparedStatement ps && method.getReturnType() == PreparedStatement.class) {
                        return wrap(PreparedStatement.class, ps, now);
                    }
                    if (result instanceof Statement st && method.getReturnType() == Statement.class) {
                        return wrap(Statement.class, st, now);
                    }
                    return result;
                }));
    }
}
