package io.idempotent.runtime.testing;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A real data source (DriverManager connections to a test database) whose subclasses wrap each
 * connection, to count or to break what goes through it. Holds the parts of {@link DataSource}
 * that no test cares about.
 */
abstract class ConnectionWrappingDataSource implements DataSource {

    private final TestDatabase db;

    ConnectionWrappingDataSource(TestDatabase db) {
        this.db = db;
    }

    /** The wrapped form of a real connection. */
    abstract Connection wrap(Connection real);

    @Override
    public final Connection getConnection() throws SQLException {
        return wrap(DriverManager.getConnection(db.url(), db.user(), db.password()));
    }

    /** Calls {@code method} on {@code target}, rethrowing what it threw. */
    static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Override
    public final Connection getConnection(String username, String password) throws SQLException {
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
