package io.idempotent.runtime.internal;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source that hands out its target's connections through {@link #decorate(Connection)}
 * and passes everything else to the target. The store's own auto-commit view, the contract test
 * kit's injected faults and the benchmarks' statement counter are all such decorators; they
 * share this one class so the delegation (and how a reflective call's exception is unwrapped)
 * cannot drift apart. Not for public use, like the rest of this package.
 */
public abstract class ConnectionDecoratingDataSource implements DataSource {

    private final DataSource target;

    /** A decorator of {@code target}'s connections. */
    protected ConnectionDecoratingDataSource(DataSource target) {
        this.target = target;
    }

    /** The data source whose connections this one decorates. */
    protected final DataSource target() {
        return target;
    }

    /**
     * The connection handed to the caller in place of {@code connection}, fresh from the target.
     * An implementation that fails must close {@code connection} itself.
     */
    protected abstract Connection decorate(Connection connection) throws SQLException;

    /**
     * Calls {@code method} on {@code target} for a dynamic proxy, throwing what the method threw
     * rather than the reflection wrapper around it (so a driver's {@link SQLException} keeps its
     * SQLState for the store's classification).
     */
    protected static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * What the caller gets in place of {@code failure}, the target's refusal of a connection: the
     * failure itself unless a decorator rewrites it (masking a password the driver quoted).
     */
    protected SQLException refused(SQLException failure) {
        return failure;
    }

    @Override
    public final Connection getConnection() throws SQLException {
        Connection connection;
        try {
            connection = target.getConnection();
        } catch (SQLException e) {
            throw refused(e);
        }
        return decorate(connection);
    }

    @Override
    public final Connection getConnection(String username, String password) throws SQLException {
        Connection connection;
        try {
            connection = target.getConnection(username, password);
        } catch (SQLException e) {
            throw refused(e);
        }
        return decorate(connection);
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return target.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        target.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        target.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return target.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return target.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return type.isInstance(this) ? type.cast(this) : target.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || target.isWrapperFor(type);
    }
}
