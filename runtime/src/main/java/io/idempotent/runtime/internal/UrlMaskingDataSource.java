package io.idempotent.runtime.internal;

import io.idempotent.runtime.internal.store.MaskedSqlException;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The store's unpooled connections, whose failures never carry a password of the store's URL: a
 * driver that quotes the URL (H2's "URL format error") or a piece of it (the PostgreSQL driver's
 * unknown host {@code user:secret@db}) has its texts masked ({@link MaskedSqlException}) before
 * the pool, the store or a log sees them.
 */
final class UrlMaskingDataSource implements DataSource {

    private final DataSource target;
    private final String url;

    UrlMaskingDataSource(DataSource target, String url) {
        this.target = target;
        this.url = url;
    }

    @Override
    public Connection getConnection() throws SQLException {
        try {
            return target.getConnection();
        } catch (SQLException e) {
            throw MaskedSqlException.masking(e, url);
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        try {
            return target.getConnection(username, password);
        } catch (SQLException e) {
            throw MaskedSqlException.masking(e, url);
        }
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
