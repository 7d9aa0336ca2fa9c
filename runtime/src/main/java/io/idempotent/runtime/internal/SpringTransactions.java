package io.idempotent.runtime.internal;

import java.sql.Connection;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A transactional tool call under Spring, through Spring's own utilities: it joins the caller's
 * transaction on the store's data source, or exposes its own transaction's connection to Spring
 * for the body, so that {@code JdbcTemplate} and {@code @Transactional} code in the body write in
 * it. Loaded only when spring-jdbc is on the class path ({@link #PRESENT}), an optional
 * dependency of the runtime. Not for application code.
 */
final class SpringTransactions {

    /** Whether spring-jdbc (and so spring-tx) is on the runtime's class path. */
    static final boolean PRESENT = present();

    private SpringTransactions() {
    }

    private static boolean present() {
        try {
            Class.forName("org.springframework.jdbc.datasource.DataSourceUtils", false,
                    SpringTransactions.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Whether the current thread runs inside a Spring transaction (on any resource). */
    static boolean transactionActive() {
        return TransactionSynchronizationManager.isActualTransactionActive();
    }

    /**
     * The connection of the current Spring transaction on {@code dataSource}, or null when the
     * thread has none on it. Hand it back with {@link #release}.
     */
    static Connection joined(DataSource dataSource) {
        if (dataSource == null
                || !(TransactionSynchronizationManager.getResource(dataSource) instanceof ConnectionHolder)) {
            return null;
        }
        return DataSourceUtils.getConnection(dataSource);
    }

    /** Hands back a connection of {@link #joined}. */
    static void release(Connection connection, DataSource dataSource) {
        DataSourceUtils.releaseConnection(connection, dataSource);
    }

    /**
     * Binds {@code connection}, the call's own transaction, as Spring's transaction on
     * {@code dataSource} until the handle is closed: the body's {@code JdbcTemplate} and
     * {@code @Transactional} code (propagation REQUIRED) take part in it.
     */
    static Exposed expose(DataSource dataSource, Connection connection) {
        // Active: Spring's transaction managers see an existing transaction and take part in it.
        ConnectionHolder holder = new ConnectionHolder(connection, true);
        TransactionSynchronizationManager.bindResource(dataSource, holder);
        return new Exposed(dataSource, holder);
    }

    /** The binding of {@link #expose}. */
    static final class Exposed implements AutoCloseable {
        private final DataSource dataSource;
        private final ConnectionHolder holder;

        private Exposed(DataSource dataSource, ConnectionHolder holder) {
            this.dataSource = dataSource;
            this.holder = holder;
        }

        /** Whether Spring code in the body marked the transaction rollback-only. */
        boolean rollbackOnly() {
            return holder.isRollbackOnly();
        }

        @Override
        public void close() {
            TransactionSynchronizationManager.unbindResourceIfPossible(dataSource);
        }
    }
}
