package io.idempotent.runtime.testing;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real data source (DriverManager connections to the test database) that breaks the connection
 * under chosen statements, the way a restarted server or a dropped network does: either before
 * the statement reaches the database, or after the database executed and committed it, so only
 * the reply is lost.
 */
public final class FaultyDataSource extends ConnectionWrappingDataSource {

    /** Where the injected failure strikes. */
    public enum Strike {
        /** The statement never reaches the database. */
        BEFORE_EXECUTING,
        /** The database executes and commits the statement; its reply is lost. */
        AFTER_COMMITTING
    }

    private final AtomicReference<String> sqlFragment = new AtomicReference<>();
    private final AtomicInteger remaining = new AtomicInteger();
    private final AtomicInteger injected = new AtomicInteger();
    private volatile Strike strike = Strike.BEFORE_EXECUTING;

    /** Connects to {@code db}. */
    public FaultyDataSource(TestDatabase db) {
        super(db);
    }

    /** Breaks the next {@code times} statements whose SQL contains {@code fragment}. */
    public void breakUpdates(String fragment, int times, Strike where) {
        strike = where;
        remaining.set(times);
        sqlFragment.set(fragment);
    }

    /** How many failures were injected so far. */
    public int injected() {
        return injected.get();
    }

    @Override
    Connection wrap(Connection real) {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    Object result = invoke(real, method, args);
                    if (method.getName().equals("prepareStatement") && args != null && args[0] instanceof String sql) {
                        return statement((PreparedStatement) result, sql);
                    }
                    return result;
                });
    }

    private PreparedStatement statement(PreparedStatement real, String sql) {
        return (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    // A change that returns its row runs as a query (RETURNING, FINAL TABLE).
                    boolean executes = method.getName().equals("executeUpdate")
                            || method.getName().equals("executeQuery") || method.getName().equals("execute");
                    if (!executes || !strikes(sql)) {
                        return invoke(real, method, args);
                    }
                    if (strike == Strike.AFTER_COMMITTING) {
                        invoke(real, method, args);
                    }
                    injected.incrementAndGet();
                    real.getConnection().close();
                    throw new SQLTransientConnectionException("injected: connection reset", "08006");
                });
    }

    private boolean strikes(String sql) {
        String fragment = sqlFragment.get();
        return fragment != null && sql.contains(fragment) && remaining.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }
}
