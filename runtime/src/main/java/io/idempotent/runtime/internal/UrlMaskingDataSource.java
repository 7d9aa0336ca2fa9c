package io.idempotent.runtime.internal;

import io.idempotent.runtime.internal.store.MaskedSqlException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The store's unpooled connections, whose failures never carry a password of the store's URL: a
 * driver that quotes the URL (H2's "URL format error") or a piece of it (the PostgreSQL driver's
 * unknown host {@code user:secret@db}) has its texts masked ({@link MaskedSqlException}) before
 * the pool, the store or a log sees them.
 */
final class UrlMaskingDataSource extends ConnectionDecoratingDataSource {

    private final String url;

    UrlMaskingDataSource(DataSource target, String url) {
        super(target);
        this.url = url;
    }

    @Override
    protected Connection decorate(Connection connection) {
        return connection;
    }

    @Override
    protected SQLException refused(SQLException failure) {
        return MaskedSqlException.masking(failure, url);
    }
}
