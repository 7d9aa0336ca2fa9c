package io.idempotent.runtime.internal.store;

import java.sql.SQLException;
import java.util.Set;

/**
 * What an {@link SQLException} says about the store: the one home of the classification of
 * store errors by SQLState and H2 error code. A store that may answer again (a lost or refused
 * connection, a timeout, an overloaded or restarting server, a serialization failure) is
 * {@link Kind#UNAVAILABLE}: retry later. So is a PostgreSQL session that refuses a write as
 * read-only once the store runs: the store refused such a session when it started, so this one
 * reached a server being switched during a failover. A store that will give the same answer
 * until someone changes it (credentials, a read-only H2 file, a missing, locked or corrupted
 * database, a schema that is not this library's) is {@link Kind#CONFIGURATION}, said with its fix. A value the database
 * refuses for good is {@link Kind#VALUE_REJECTED}. Only SQLStates and codes are read, never the
 * driver's text, which may quote SQL or values.
 */
public final class SqlStates {

    /** What a failure means for the caller. */
    public enum Kind {
        /** The same values fail again (SQLState class 22 or 23): do not retry. */
        VALUE_REJECTED,
        /** The store is not usable as configured: do not retry until it is fixed. */
        CONFIGURATION,
        /** The store may answer again: retry later. */
        UNAVAILABLE
    }

    /**
     * A classified failure.
     *
     * @param kind what it means for the caller
     * @param code the SQLState or H2 error as a message names it ("SQLState 28P01", "H2 error
     *     90030"), or null when the failure carries none
     * @param problem what is wrong, as a phrase without a final full stop
     * @param advice what to do, or null for {@link Kind#UNAVAILABLE} (the caller's own advice)
     */
    public record Failure(Kind kind, String code, String problem, String advice) {
    }

    /**
     * H2's ERROR_OPENING_DATABASE_1, DATABASE_ALREADY_OPEN_1, CONNECTION_BROKEN_1 and
     * DATABASE_CALLED_AT_SHUTDOWN (the JVM that served the file is stopping).
     */
    private static final Set<Integer> H2_HANDOVER_ERRORS = Set.of(8000, 90020, 90067, 90121);

    /** H2: FILE_CORRUPTED_1, IO_EXCEPTION_1, FILE_VERSION_ERROR_1, FILE_ENCRYPTION_ERROR_1. */
    private static final Set<Integer> H2_FILE_ERRORS = Set.of(90030, 90028, 90048, 90049);

    /** H2: DATABASE_NOT_FOUND_1, DATABASE_NOT_FOUND_WITH_IF_EXISTS_1, REMOTE_DATABASE_NOT_FOUND_1. */
    private static final Set<Integer> H2_NO_DATABASE = Set.of(90013, 90146, 90149);

    /** H2's DATABASE_IS_READ_ONLY. */
    private static final int H2_READ_ONLY = 90097;

    /**
     * PostgreSQL's duplicate_prepared_statement (42P05), invalid_sql_statement_name (26000) and
     * protocol_violation (08P01, which a bind with another statement's number of parameters
     * gets): what named server-side statements meet behind a transaction pooler that hands one
     * client's server session to another ({@link TransactionPooler}).
     */
    private static final Set<String> STATEMENT_NAME_COLLISIONS = Set.of("42P05", "26000", "08P01");

    /** What a collision of statement names is said as. */
    static final String STATEMENT_NAMES_COLLIDE = "the server refused a prepared statement of the store: named"
            + " server-side statements collide, as when a transaction pooler (PgBouncer with pool_mode=transaction)"
            + " hands one client's server session, with the statements prepared on it, to another client";

    /** What to do about colliding statement names. */
    static final String STATEMENT_NAMES_ADVICE = "Remove prepareThreshold from store.url (the store then uses"
            + " prepareThreshold=0, unnamed statements, behind a transaction pooler it finds at start), or set"
            + " prepareThreshold=0 on store.url or the application's data source; or run PgBouncer with"
            + " pool_mode=session, or PgBouncer 1.21 or later with max_prepared_statements above 0; see"
            + " docs/production-postgresql.md";

    /** PostgreSQL's read_only_sql_transaction: the session may not write. */
    public static final String READ_ONLY = "25006";

    /** A read-only session found when the store starts, said as a configuration error. */
    static final String READ_ONLY_PROBLEM = "the database is read-only for the store's user";

    /** What to do about a read-only database or session found when the store starts. */
    static final String READ_ONLY_ADVICE = "Point store.url at a writable database (the primary, not a standby; an H2"
            + " file without ACCESS_MODE_DATA=r), or clear default_transaction_read_only for the store's user and"
            + " database";

    private static final String CREDENTIALS_ADVICE = "Check store.user and store.password (IDEMPOTENT_STORE_USER,"
            + " IDEMPOTENT_STORE_PASSWORD, or the builder's arguments): the user must exist in the database and the"
            + " password must be its own";

    private static final String UNREADABLE = "cannot be read: it is corrupted, not an H2 database, or written by"
            + " another H2 version";
    private static final String UNREADABLE_ADVICE = "Restore the file from a backup; or move it (and its .secret)"
            + " aside to start an empty store, which forgets every recorded operation";

    private SqlStates() {
    }

    /**
     * {@code e} with the H2 file named, when it says that the file cannot be read (H2 names it
     * only in its own message, which a store's messages never carry); otherwise {@code e}.
     */
    public static SQLException namingH2File(SQLException e, java.nio.file.Path mvDbFile) {
        if (!isH2(e) || !H2_FILE_ERRORS.contains(e.getErrorCode())) {
            return e;
        }
        return new KnownStoreProblem("the H2 file " + mvDbFile + " " + UNREADABLE, "H2 error " + e.getErrorCode(),
                UNREADABLE_ADVICE, e);
    }

    /** What {@code e} (or the first exception in its causes that says anything) means for the caller. */
    public static Failure classify(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof KnownStoreProblem known) {
                return new Failure(Kind.CONFIGURATION, known.code(), known.problem(), known.advice());
            }
            if (t instanceof StoreChangingHands busy) {
                return new Failure(Kind.UNAVAILABLE, busy.code(), busy.problem(), null);
            }
        }
        SQLException said = firstWithState(e);
        String state = said == null ? null : said.getSQLState();
        boolean h2 = said != null && isH2(said);
        int h2Code = h2 ? said.getErrorCode() : 0;
        // H2's own errors have SQLStates of class 90 that only H2's error codes explain.
        String code = state == null ? null : h2 && state.startsWith("9") ? "H2 error " + h2Code
                : "SQLState " + state;
        if (state == null) {
            return new Failure(Kind.UNAVAILABLE, null, "the database did not answer in time", null);
        }
        if (state.startsWith("22") || state.startsWith("23")) {
            return new Failure(Kind.VALUE_REJECTED, code, "the database refused a value for good", "A repeat gets"
                    + " the same answer: change the value or the table's constraint");
        }
        if (state.startsWith("28")) {
            return new Failure(Kind.CONFIGURATION, code, "the database refused the user name or password",
                    CREDENTIALS_ADVICE);
        }
        if (state.equals("3D000") || H2_NO_DATABASE.contains(h2Code)) {
            return new Failure(Kind.CONFIGURATION, code, "the database named in the URL does not exist",
                    "Create the database, or correct store.url");
        }
        if (state.equals("3F000")) {
            return new Failure(Kind.CONFIGURATION, code, "the schema named in the URL does not exist",
                    "Create the schema, or correct store.url");
        }
        if (h2Code == H2_READ_ONLY || (h2 && state.equals(READ_ONLY))) {
            return new Failure(Kind.CONFIGURATION, code, READ_ONLY_PROBLEM, READ_ONLY_ADVICE);
        }
        if (state.equals(READ_ONLY)) {
            // The store refused a read-only session when it started (StoreSchema): this one reached
            // a server being switched (a primary demoted, a standby not yet promoted). The pool
            // drops the connection, and the next one finds the primary.
            return new Failure(Kind.UNAVAILABLE, code, "the database refused a write: the session is read-only, as"
                    + " on a server being switched to or from standby", null);
        }
        if (!h2 && STATEMENT_NAME_COLLISIONS.contains(state)) {
            // Before class 42 (a missing table) and class 08 (a lost connection): neither is the case.
            return new Failure(Kind.CONFIGURATION, code, STATEMENT_NAMES_COLLIDE, STATEMENT_NAMES_ADVICE);
        }
        if (state.startsWith("42")) {
            return new Failure(Kind.CONFIGURATION, code, "the database refused a statement of the store: a table,"
                    + " column or privilege it needs is missing", "Apply the migration that idempotent-runtime.jar"
                    + " ships (or set store.schema=create) and grant the store's user SELECT, INSERT, UPDATE and"
                    + " DELETE on its tables");
        }
        if (H2_FILE_ERRORS.contains(h2Code)) {
            return new Failure(Kind.CONFIGURATION, code, "the H2 database file " + UNREADABLE, UNREADABLE_ADVICE);
        }
        if (state.equals("XX001") || state.equals("XX002")) {
            return new Failure(Kind.CONFIGURATION, code, "the database reports corrupted data or indexes",
                    "Restore the store's tables from a backup, or REINDEX them");
        }
        return new Failure(Kind.UNAVAILABLE, code, isTransient(state, h2Code) ? "the database did not answer"
                : "the database failed", null);
    }

    /**
     * A lost or refused connection (class 08), insufficient resources (53), an operator or a crash
     * stopping the server (57), a serialization failure or deadlock (40001, 40P01), a lock or
     * query timeout, or H2 handing its file over: the same work may succeed a moment later.
     */
    static boolean isTransient(String state, int h2Code) {
        return state.startsWith("08") || state.startsWith("53") || state.startsWith("57") || state.equals("40001")
                || state.equals("40P01") || state.equals("55P03") || state.equals("HYT00")
                || H2_HANDOVER_ERRORS.contains(h2Code);
    }

    /** Whether H2 threw {@code e} (or the exception that {@code e} copies with its text masked). */
    private static boolean isH2(SQLException e) {
        return MaskedSqlException.driverClassOf(e).startsWith("org.h2.");
    }

    /** The first exception among {@code e} and its causes that carries an SQLState. */
    private static SQLException firstWithState(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                return sql;
            }
        }
        return null;
    }

    /**
     * A syntax error or access rule violation (class 42: an undefined table or column, among
     * others): the schema is missing or not the one the store needs. Anything else (a lost
     * connection, class 08; H2 handing its file over, 90020) says nothing about the schema.
     */
    static boolean isSchemaMismatch(SQLException e) {
        SQLException said = firstWithState(e);
        return said != null && said.getSQLState().startsWith("42") && !said.getSQLState().equals("42P05");
    }

    /**
     * Whether {@code e} is one of the H2 errors that an embedded store's file raises while another
     * process holds it or it changes hands (a handover code, or a file error: 90028 and its kin
     * also come from a take-over of the lock file that fails on the holder's lock): such an error
     * says something about the file only once it is re-checked with no other process holding it.
     */
    public static boolean isH2FileState(SQLException e) {
        SQLException said = firstWithState(e);
        if (said == null || !isH2(said)) {
            return false;
        }
        return H2_HANDOVER_ERRORS.contains(said.getErrorCode()) || H2_FILE_ERRORS.contains(said.getErrorCode());
    }

    /** Whether {@code e} says that the H2 file cannot be read (corrupted, foreign, unreadable). */
    public static boolean isH2FileError(SQLException e) {
        SQLException said = firstWithState(e);
        return said != null && isH2(said) && H2_FILE_ERRORS.contains(said.getErrorCode());
    }

    /** "H2 error N" for {@code e}'s first exception that carries an SQLState, or null. */
    public static String h2Code(SQLException e) {
        SQLException said = firstWithState(e);
        return said == null ? null : "H2 error " + said.getErrorCode();
    }

    /**
     * An H2 file database that several JVMs share with {@code AUTO_SERVER} is changing hands: the
     * JVM that served it went away, or several open it at once, and H2 refuses the ones that come
     * too early ("Lock file recently modified", "Database may be already in use", a broken
     * connection to the JVM that served it). A moment later the same work succeeds.
     */
    public static boolean isH2Handover(SQLException e) {
        return H2_HANDOVER_ERRORS.contains(e.getErrorCode());
    }
}
