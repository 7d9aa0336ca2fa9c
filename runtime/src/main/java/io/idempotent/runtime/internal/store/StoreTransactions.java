package io.idempotent.runtime.internal.store;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * What a transactional tool call needs of its store: a connection of the store's database, the
 * data source whose transactions that connection may join (the application's, for a store on
 * it), and the binding that makes the store's own statements of the current thread run on the
 * call's connection ({@link BoundConnections}). The statements themselves stay the state
 * machine's: nothing is copied.
 */
public final class StoreTransactions {

    private final StoreDatabase db;
    private final DataSource pool;
    private volatile DataSource application;

    StoreTransactions(StoreDatabase db, DataSource pool) {
        this.db = db;
        this.pool = pool;
    }

    /**
     * The data source the application gave the store (without a Spring transaction-aware proxy):
     * the key under which Spring binds the connection of a transaction on it. Null for a store
     * the runtime opened from a URL.
     */
    public DataSource application() {
        return application;
    }

    /** Sets {@link #application()}; once, when the store is built on the application's data source. */
    void application(DataSource application) {
        this.application = application;
    }

    /** Prepares the schema (on the store's own connections), so that no DDL runs inside a call's transaction. */
    public void ensureSchema() {
        db.ensureSchema();
    }

    /** A new connection of the store's pool; the caller switches off auto-commit and closes it. */
    public Connection connection() throws SQLException {
        return db.connection();
    }

    /**
     * Makes every statement of the store on this thread run on {@code connection} until the
     * handle is closed.
     */
    public AutoCloseable bind(Connection connection) {
        return BoundConnections.bind(pool, connection);
    }

    /** A failure of the call's transaction in the store's words. */
    public RuntimeException unavailable(String what, SQLException e) {
        return db.unavailable(what, e);
    }

    /** The store as messages name it. */
    public String described() {
        return db.described();
    }
}
