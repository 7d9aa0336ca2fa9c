package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * The schema of one store: prepared once before its first statement (a standby and a read-only
 * session refused, the migrations of its {@link Dialect} not yet applied run in {@code create}
 * mode, every table and column checked by its {@link SchemaCheck}, which also names what a
 * schema that is not this library's lacks, and the migration that makes it). Owns the migration
 * resources' reading and splitting into statements.
 */
final class StoreSchema {

    /**
     * What H2's catalogue answers a session whose DDL meets another session's: row not found in
     * the catalogue's index, a column or table not there yet, a general error, a constraint
     * that another session's migration just added or dropped, a deadlock between two sessions'
     * {@code ALTER TABLE} of one migration.
     */
    private static final Set<String> H2_CATALOGUE_RACES = Set.of("90143", "42S22", "42S02",
            "HY000", "90045", "90057", "40001");


    /**
     * How often preparing the schema, or a claim, is tried while an embedded H2 store changes
     * hands, and the pause between (each try's new connection also waits, up to the connect timeout).
     */
    static final int HANDOVER_TRIES = 10;

    /**
     * How often preparing an H2 schema is tried while other sessions create it at once (each try
     * finds more of what they made): six runtimes creating one store on two busy cores used up
     * ten tries in lockstep.
     */
    static final int CATALOGUE_RACE_TRIES = 40;
    static final long HANDOVER_PAUSE_NANOS = 100_000_000L;

    private static final System.Logger LOGGER = System.getLogger(StoreSchema.class.getName());

    private final DataSource dataSource;
    /** Where the first connection comes from: unpooled, so that a refusal is reported at once. */
    private final DataSource firstConnection;
    private final Dialect dialect;
    private final SchemaMode schemaMode;
    private final StoreFailures failures;
    private final UnnamedStatements unnamed;
    private final SchemaCheck check;
    private volatile boolean schemaReady;

    StoreSchema(DataSource dataSource, DataSource firstConnection, Dialect dialect, SchemaMode schemaMode,
            StoreFailures failures, UnnamedStatements unnamed) {
        this.unnamed = unnamed;
        this.dataSource = dataSource;
        this.firstConnection = firstConnection;
        this.dialect = dialect;
        this.schemaMode = schemaMode;
        this.failures = failures;
        this.check = new SchemaCheck(dialect, schemaMode, failures);
    }

    /**
     * Prepares the schema once; {@code claimed} is what a failure says of a claim (see
     * {@link StoreFailures#failure(String, SQLException, ClaimFate)}).
     */
    void ensureSchema(ClaimFate claimed) {
        if (schemaReady) {
            return;
        }
        synchronized (this) {
            for (int attempt = 1; !schemaReady; attempt++) {
                Connection first = null;
                Connection c;
                try {
                    // A connection already waits out a handover, up to the store's connect timeout.
                    // The first one is opened directly, and held until the pool has one of its
                    // own (an embedded H2 database stays open in between).
                    first = firstConnection == dataSource ? null : firstConnection.getConnection();
                    c = dataSource.getConnection();
                } catch (SQLException e) {
                    closeQuietly(first, e);
                    throw failures.failure("connect to", e, claimed);
                }
                try (Connection held = first; c) {
                    prepareSchema(c, held, claimed);
                    schemaReady = true;
                } catch (SQLException e) {
                    // Preparing the schema is idempotent: an embedded store that changes hands
                    // under an open connection is waited for as a new connection would wait.
                    // Likewise when H2 creates the schema while another session does: H2 has no
                    // lock to take first, and its catalogue answers the loser in several ways
                    // (90143 "row not found in primary index", 42S22 on a view over a table being
                    // made, HY000: seen with six runtimes creating one store at once). The next try
                    // finds what the other one made; a schema that is really wrong fails every try.
                    boolean h2CatalogueRace = schemaMode == SchemaMode.CREATE && dialect.name().equals("h2")
                            && H2_CATALOGUE_RACES.contains(e.getSQLState());
                    boolean handover = SqlStates.isH2Handover(e);
                    if (!(handover || h2CatalogueRace)
                            || attempt >= (h2CatalogueRace ? CATALOGUE_RACE_TRIES : HANDOVER_TRIES)) {
                        throw failures.failure("prepare the schema of", e, claimed);
                    }
                    // Sessions that met in one DDL and paused alike would meet again at their next
                    // try: a catalogue race waits a random part of the pause, so they fall apart.
                    LockSupport.parkNanos(h2CatalogueRace && !handover
                            ? ThreadLocalRandom.current().nextLong(HANDOVER_PAUSE_NANOS / 5, HANDOVER_PAUSE_NANOS)
                            : HANDOVER_PAUSE_NANOS);
                }
            }
        }
    }

    /**
     * Refuses a standby, named server-side statements through a transaction pooler
     * ({@link TransactionPooler}; {@code other} is a second connection of the store, or null) and a
     * read-only session, creates the schema (in {@code create} mode) and
     * checks it, then says when the primary's standbys are asynchronous. A schema that is not this
     * library's (class 42: another application's table, an older schema, a missing table in
     * {@code validate} mode) is a configuration error that says which table or column is missing.
     * A read-only session is refused here, when the store starts, as configuration: once the
     * store runs, the same answer means a server being switched, and is retryable ({@link SqlStates}).
     */
    private void prepareSchema(Connection c, Connection other, ClaimFate claimed) throws SQLException {
        boolean postgresql = dialect.name().equals("postgresql");
        if (postgresql) {
            ServerRole.requirePrimary(c);
            String pooled = TransactionPooler.requireSafe(c, other, unnamed);
            if (pooled != null) {
                LOGGER.log(System.Logger.Level.INFO, "idempotent runtime: " + failures.described() + ": " + pooled);
            }
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(dialect.readOnlyQuery())) {
            if (rs.next() && rs.getBoolean(1)) {
                throw new KnownStoreProblem(SqlStates.READ_ONLY_PROBLEM, "SQLState " + SqlStates.READ_ONLY,
                        SqlStates.READ_ONLY_ADVICE, null);
            }
        }
        try {
            if (schemaMode == SchemaMode.CREATE) {
                createSchema(c);
            }
            check.validateSchema(c);
        } catch (SQLException e) {
            if (!SqlStates.isSchemaMismatch(e)) {
                throw e;
            }
            throw check.schemaMismatch(c, e, claimed);
        }
        String asynchronous = postgresql ? ServerRole.asynchronousStandbys(c) : null;
        if (asynchronous != null) {
            // Beside the runtime's start line: what a failover of this store would cost.
            LOGGER.log(System.Logger.Level.INFO, "idempotent runtime: " + failures.described() + ": " + asynchronous);
        }
    }

    private static void closeQuietly(Connection c, Exception failure) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                failure.addSuppressed(e);
            }
        }
    }

    /**
     * Runs the migrations not yet applied, oldest first. The first one's statements are all
     * idempotent and run at every start while no later migration is applied (they create what is
     * missing); a later one runs once, in one transaction under the dialect's lock, when the table
     * that marks it is absent: it may drop what an earlier one created, which must then not be
     * created again.
     */
    private void createSchema(Connection c) throws SQLException {
        List<Dialect.Migration> migrations = dialect.migrations();
        int from = 0;
        for (int i = migrations.size() - 1; i > 0 && from == 0; i--) {
            boolean applied = true;
            for (Dialect.Migration earlier : migrations.subList(0, i + 1)) {
                applied &= exists(c, earlier.mark());
            }
            if (applied) {
                from = i + 1;
            }
        }
        for (int i = from; i < migrations.size(); i++) {
            List<String> statements = statements(readResource(migrations.get(i).resource()));
            if (i == 0) {
                runEach(c, statements);
            } else {
                runOnce(c, migrations.get(i).mark(), statements);
            }
        }
    }

    private static void runEach(Connection c, List<String> statements) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String sql : statements) {
                try {
                    st.execute(sql);
                } catch (SQLException e) {
                    // Two JVMs creating the schema at once: the loser's CREATE may fail on an
                    // object the winner just made. Validation below says whether all is there.
                    if (!isConcurrentDdl(e)) {
                        throw e;
                    }
                }
            }
        }
    }

    /** Runs a marked migration in one transaction, unless another store applied it first. */
    private void runOnce(Connection c, String mark, List<String> statements) throws SQLException {
        StoreDatabase.inTransaction(c, () -> {
            try (Statement st = c.createStatement()) {
                if (dialect.migrationLock() != null) {
                    st.execute(dialect.migrationLock());
                }
                if (!exists(c, mark)) {
                    for (String sql : statements) {
                        st.execute(sql);
                    }
                }
            }
            return null;
        });
    }

    /** Whether {@code table} exists in the connection's current schema. */
    private static boolean exists(Connection c, String table) throws SQLException {
        return !SchemaCheck.columnsOf(c, c.getMetaData(), table).isEmpty();
    }

    /**
     * The statements of a migration, without its {@code --} comments: split at each {@code ;}
     * outside a quoted string and outside a dollar-quoted body (a function's body has its own).
     */
    static List<String> statements(String ddl) {
        List<String> statements = new ArrayList<>();
        StringBuilder statement = new StringBuilder();
        String dollarQuote = null;
        boolean inString = false;
        for (int i = 0; i < ddl.length(); i++) {
            char ch = ddl.charAt(i);
            if (dollarQuote == null && !inString && ch == '-' && ddl.startsWith("--", i)) {
                int end = ddl.indexOf('\n', i);
                i = end < 0 ? ddl.length() : end - 1;
                continue;
            }
            if (dollarQuote == null && ch == '\'') {
                inString = !inString;
            } else if (!inString && ch == '$') {
                int end = ddl.indexOf('$', i + 1);
                String tag = end < 0 ? null : ddl.substring(i, end + 1);
                if (tag != null && tag.matches("\\$[A-Za-z_]*\\$") && (dollarQuote == null || dollarQuote.equals(tag))) {
                    dollarQuote = dollarQuote == null ? tag : null;
                    statement.append(tag);
                    i = end;
                    continue;
                }
            } else if (ch == ';' && dollarQuote == null && !inString) {
                add(statements, statement);
                continue;
            }
            statement.append(ch);
        }
        add(statements, statement);
        return statements;
    }

    private static void add(List<String> statements, StringBuilder statement) {
        String sql = statement.toString().strip();
        if (!sql.isEmpty()) {
            statements.add(sql);
        }
        statement.setLength(0);
    }

    private static boolean isConcurrentDdl(SQLException e) {
        String state = e.getSQLState();
        return "23505".equals(state) || "42P07".equals(state) || "42710".equals(state) || "42S01".equals(state)
                || "42S11".equals(state) || "40001".equals(state) || "HYT00".equals(state)
                // PostgreSQL: two CREATE OR REPLACE VIEW of the attempt log at once.
                || "XX000".equals(state) && String.valueOf(e.getMessage()).contains("tuple concurrently updated")
                // H2: CREATE INDEX IF NOT EXISTS racing another session's CREATE INDEX.
                || "HY000".equals(state) && String.valueOf(e.getMessage()).contains("object already exists");
    }

    private static String readResource(String resource) {
        try (InputStream in = StoreSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new StoreConfigurationException(null, null, "missing resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new StoreConfigurationException(null, null, "cannot read " + resource, e);
        }
    }
}
