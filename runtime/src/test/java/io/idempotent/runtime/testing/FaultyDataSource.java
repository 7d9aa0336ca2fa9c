package io.idempotent.runtime.testing;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A real data source (DriverManager connections to the test database) that breaks the connection
 * under chosen statements, the way a restarted server or a dropped network does: either before
 * the statement reaches the database, or after the database executed and committed it, so only
 * the reply is lost.
 */
public final class FaultyDataSource implements DataSource {

    /** Where the injected failure strikes. */
    public enum Strike {
        /** The statement never reaches the database. */
        BEFORE_EXECUTING,
        /** The database executes and commits the statement; its reply is lost. */
        AFTER_COMMITTING
    }

    private final TestDatabase db;
    private final AtomicReference<String> sqlFragment = new AtomicReference<>();
    private final AtomicInteger remaining = new AtomicInteger();
    private final AtomicInteger injected = new AtomicInteger();
    private volatile Strike strike = Strike.BEFORE_EXECUTING;

    /** Connects to {@code db}. */
    public FaultyDataSource(TestDatabase db) {
        this.db = db;
    }

    /** Breaks the next {@code times} updates whose SQL contains {@code fragment}. */
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
    public Connection getConnection() throws SQLException {
        Connection real = DriverManager.getConnection(db.url(), db.user(), db.password());
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
                    if (!method.getName().equals("executeUpdate") || !strikes(sql)) {
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

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
    }

    @Override
    public void setLoginTimeout(int seconds) {
    }

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return false;
    }
}
