package io.idempotent.runtime.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The database of one store as each of its parts uses it: a connection once the schema is
 * prepared, one write run on its own, a transaction, the dialect and the row reader, and the
 * store's failures in its own words.
 */
final class StoreDatabase {

    /** Binds a statement's parameters. */
    interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    /** Work on one connection inside a transaction. */
    interface SqlWork<T> {
        T run() throws SQLException;
    }

    private final DataSource dataSource;
    private final Dialect dialect;
    private final StoreSchema schema;
    private final StoreFailures failures;
    private final Rows rows = new Rows();
    private final UnnamedStatements unnamed;

    StoreDatabase(DataSource dataSource, Dialect dialect, StoreSchema schema, StoreFailures failures,
            UnnamedStatements unnamed) {
        this.unnamed = unnamed;
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.schema = schema;
        this.failures = failures;
    }

    Dialect dialect() {
        return dialect;
    }

    Rows rows() {
        return rows;
    }

    /** The store as messages name it: its name, database and URL without credentials. */
    String described() {
        return failures.described();
    }

    /** Prepares the schema once, before the store's first statement. */
    void ensureSchema() {
        schema.ensureSchema(ClaimFate.NOT_A_CLAIM);
    }

    /** As {@link #ensureSchema()}, for a claim: {@code claimed} is what a failure says of it. */
    void ensureSchema(ClaimFate claimed) {
        schema.ensureSchema(claimed);
    }

    /**
     * A connection of the store's pool; the caller prepares the schema first. On a thread that
     * runs a transactional tool call, the call's connection ({@link BoundConnections}).
     */
    Connection connection() throws SQLException {
        Connection bound = BoundConnections.on(dataSource);
        return bound != null ? bound : connection(dataSource);
    }

    /**
     * Whether this thread runs a transactional tool call on this store: its statements then belong
     * to the call's transaction, which may still roll back, so nothing may leave this thread's
     * connection (no batch with other callers) or outlive it (no answer remembered from memory).
     */
    boolean inCallTransaction() {
        return BoundConnections.on(dataSource) != null;
    }

    /**
     * A connection of {@code from}, one of the store's data sources (its pool, or the lease
     * renewals' own), set up as every connection of the store is: unnamed statements once a
     * transaction pooler was found, so that no statement of the store's is named behind it.
     */
    Connection connection(DataSource from) throws SQLException {
        Connection c = from.getConnection();
        try {
            unnamed.apply(c);
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** Runs one write; returns how many rows it wrote. */
    int execute(String sql, String what, Binder binder) {
        ensureSchema();
        try (Connection c = connection(); PreparedStatement ps = c.prepareStatement(sql)) {
            binder.bind(ps);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw unavailable(what, e);
        }
    }

    /** Runs {@code work} in one transaction on {@code c}, and leaves {@code c} in auto-commit mode. */
    static <T> T inTransaction(Connection c, SqlWork<T> work) throws SQLException {
        c.setAutoCommit(false);
        try {
            T result = work.run();
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    RuntimeException unavailable(String what, SQLException e) {
        return failures.unavailable(what, e);
    }

    /** See {@link StoreFailures#failure(String, SQLException, ClaimFate)}. */
    RuntimeException failure(String what, SQLException e, ClaimFate claimed) {
        return failures.failure(what, e, claimed);
    }
}
