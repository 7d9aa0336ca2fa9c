package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.RuntimeConfiguration;
import io.idempotent.runtime.testing.Database;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.FaultyDataSource;
import io.idempotent.runtime.testing.FaultyDataSource.Strike;
import io.idempotent.runtime.testing.H2FileHolder;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store that is misconfigured (wrong credentials, a locked, corrupted or read-only database, a
 * table that is not ours, a secret that does not open the embedded file) is refused at its first
 * connection with a {@link StoreConfigurationException} that is not retryable and says what is
 * wrong and what to do, never "retry later", never SQL or the driver's text; the body does not
 * run. One row per mistake: the next one a user makes is one line in {@link #MISTAKES}.
 */
class StoreBadInputTest {

    private static final ToolPolicy TOOL = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842");
    private static final Set<Database> BOTH = Set.of(Database.H2, Database.POSTGRESQL);
    private static final Set<Database> H2 = Set.of(Database.H2);
    private static final Set<Database> POSTGRESQL = Set.of(Database.POSTGRESQL);
    private static final Pattern PG_URL = Pattern.compile("^jdbc:postgresql://([^/]+)/([^?]+).*$");
    /** What no message may carry: SQL, the drivers' own texts and codes in their own format. */
    private static final List<String> NEVER_IN_A_MESSAGE = List.of("SELECT ", "INSERT ", "CREATE ", "ALTER ",
            "SQL statement", "FATAL", "-232]", "Possible solution", "Retry the call later");

    /** A store with a mistake in it, as a test makes it; {@code secret} must appear in no message. */
    private record Made(IdempotentRuntime runtime, String secret, AutoCloseable cleanUp) {
    }

    private interface Setup {
        Made make(TestDatabase db, Path dir) throws Exception;
    }

    /**
     * One mistake: on which databases it can be made, how, and what its refusal must say (the
     * SQLState or H2 error first).
     */
    private record Mistake(String name, Set<Database> on, Setup setup, List<String> says) {
    }

    private static final List<Mistake> MISTAKES = List.of(
            new Mistake("wrong password", BOTH, StoreBadInputTest::wrongPassword,
                    List.of("user name or password", "store.password")),
            new Mistake("unknown user", BOTH, StoreBadInputTest::unknownUser,
                    List.of("SQLState 28000", "user name or password", "store.user")),
            new Mistake("unknown database", POSTGRESQL, StoreBadInputTest::unknownDatabase,
                    List.of("SQLState 3D000", "database", "store.url")),
            new Mistake("a foreign table in create mode", BOTH, StoreBadInputTest::foreignTable,
                    List.of("SQLState 42", "tool_operations", "another application or an older", "store.url")),
            new Mistake("an older schema in create mode", BOTH, StoreBadInputTest::olderSchema,
                    List.of("SQLState 42", "tool_operations", "attempt_id", "V1__idempotent_tool_operations.sql")),
            new Mistake("a read-only database", BOTH, StoreBadInputTest::readOnly,
                    List.of("read-only", "writable")),
            new Mistake("an H2 file held by a process that does not share it", H2, StoreBadInputTest::lockedFile,
                    List.of("H2 error 90020", "operations.mv.db", "AUTO_SERVER")),
            new Mistake("a corrupted H2 file", H2, StoreBadInputTest::corruptedFile,
                    List.of("H2 error 900", "operations.mv.db", "corrupted", "backup")),
            new Mistake("the embedded store's secret deleted", H2, StoreBadInputTest::deletedSecret,
                    List.of("operations.secret", "does not open", "deleted or replaced", "backup")),
            new Mistake("another database's secret", H2, StoreBadInputTest::foreignSecret,
                    List.of("operations.secret", "does not open", "deleted or replaced", "backup")));

    @OnBothDatabases
    void eachMistakeIsAConfigurationErrorAtTheFirstCallAndTheBodyDoesNotRun(TestDatabase db, @TempDir Path dir)
            throws Exception {
        SoftAssertions softly = new SoftAssertions();
        for (Mistake mistake : MISTAKES) {
            if (!mistake.on().contains(db.kind())) {
                continue;
            }
            Path rowDir = Files.createDirectories(dir.resolve(mistake.name().replaceAll("\\W+", "_")));
            Made made = mistake.setup().make(db, rowDir);
            try {
                FakeProvider provider = new FakeProvider();
                Throwable first = catchThrowable(() -> made.runtime().call(TOOL, "refund:1", PAYLOAD, String.class,
                        () -> provider.apply("refund")));
                Throwable second = catchThrowable(() -> made.runtime().call(TOOL, "refund:2", PAYLOAD, String.class,
                        () -> provider.apply("refund")));
                assertRefusedForGood(softly.assertThat(first).as(mistake.name()), first, mistake, made);
                assertRefusedForGood(softly.assertThat(second).as(mistake.name() + ", second call"), second,
                        mistake, made);
                softly.assertThat(provider.invocations()).as(mistake.name() + ": bodies run").isZero();
                // An operator's read (the command line's) meets the same error, without a word of claims.
                Throwable read = catchThrowable(() -> made.runtime().operations().countByToolAndStatus("default"));
                softly.assertThat(read).as(mistake.name() + ", an operator's read")
                        .isInstanceOf(StoreConfigurationException.class).hasMessageContaining(mistake.says().get(0))
                        .hasMessageNotContaining("claimed").hasMessageNotContaining("SELECT ");
            } finally {
                made.runtime().close();
                if (made.cleanUp() != null) {
                    made.cleanUp().close();
                }
            }
        }
        softly.assertAll();
    }

    private static void assertRefusedForGood(org.assertj.core.api.AbstractThrowableAssert<?, ?> that,
            Throwable refused, Mistake mistake, Made made) {
        that.isInstanceOf(StoreConfigurationException.class).hasMessageContaining("tool refund")
                .hasMessageContaining("store \"default\"").hasMessageContaining("the body did not run");
        for (String fragment : mistake.says()) {
            that.hasMessageContaining(fragment);
        }
        for (String never : NEVER_IN_A_MESSAGE) {
            that.hasMessageNotContaining(never);
        }
        if (made.secret() != null) {
            that.hasMessageNotContaining(made.secret());
        }
        if (refused instanceof IdempotencyException e) {
            that.matches(x -> !e.retryable(), "not retryable");
        }
        // Found at the connection itself, not after waiting out the pool's timeout for one.
        that.matches(StoreBadInputTest::noPoolTimeout, "refused without a pool timeout in its causes");
    }

    private static boolean noPoolTimeout(Throwable refused) {
        for (Throwable t = refused; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException && String.valueOf(t.getMessage())
                    .contains("Connection is not available")) {
                return false;
            }
        }
        return true;
    }

    /** Item 10: an H2 file deleted under a running JVM is noticed; the JVM does not write to the deleted file. */
    @Test
    void anH2FileDeletedUnderARunningStoreRefusesCallsAndSaysToRestart(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("operations") + ";AUTO_SERVER=TRUE";
        FakeProvider provider = new FakeProvider();
        try (IdempotentRuntime runtime = configuredBy(url)) {
            assertThat(runtime.call(TOOL, "refund:1", PAYLOAD, String.class, () -> provider.apply("refund")))
                    .isEqualTo("done:refund");
            Files.delete(dir.resolve("operations.mv.db"));

            Throwable refused = catchThrowable(() -> runtime.call(TOOL, "refund:2", PAYLOAD, String.class,
                    () -> provider.apply("refund")));
            Throwable replay = catchThrowable(() -> runtime.call(TOOL, "refund:1", PAYLOAD, String.class,
                    () -> provider.apply("refund")));

            assertThat(refused).as("a new key on the deleted file").isNotNull();
            assertThat(replay).as("a completed key on the deleted file").isNotNull();
            for (Throwable t : List.of(refused, replay)) {
                assertThat(t).isInstanceOf(StoreConfigurationException.class)
                        .hasMessageContaining(dir.resolve("operations.mv.db").toString())
                        .hasMessageContaining("deleted or replaced").hasMessageContaining("Restart the JVM");
                assertThat(((IdempotencyException) t).retryable()).isFalse();
            }
            assertThat(provider.invocations()).isEqualTo(1);
            assertThat(dir.resolve("operations.mv.db")).doesNotExist();
        }
    }

    /**
     * Only a store that may answer again is "retry later", and only a statement that may have
     * reached the database may have recorded the claim.
     */
    @OnBothDatabases
    void aStoreThatMayAnswerAgainIsRetryLaterAndSaysWhetherTheClaimMayHaveBeenRecorded(TestDatabase db)
            throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String unreachable = db.kind() == Database.H2 ? "jdbc:h2:tcp://127.0.0.1:" + closedPort + "/nowhere"
                : "jdbc:postgresql://127.0.0.1:" + closedPort + "/nowhere";
        FakeProvider provider = new FakeProvider();
        try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", unreachable, "u", "secret-pw")
                .build()) {
            Throwable refused = catchThrowable(() -> runtime.call(TOOL, "refund:1", PAYLOAD, String.class,
                    () -> provider.apply("refund")));
            assertThat(refused).isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("could not connect").hasMessageContaining("nothing was claimed")
                    .hasMessageContaining("the body did not run").hasMessageNotContaining("may have been recorded")
                    .hasMessageNotContaining("secret-pw").hasMessageContaining(String.valueOf(closedPort));
            assertThat(((IdempotencyException) refused).retryable()).isTrue();
        }

        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).build());
        // The claim's insert (not the schema's: tool_operations_open's name starts the same).
        faulty.breakUpdates("INSERT INTO tool_operations (tool", 1, Strike.AFTER_COMMITTING);
        Throwable lost = catchThrowable(() -> runtime.call(TOOL, "refund:2", PAYLOAD, String.class,
                () -> provider.apply("refund")));
        assertThat(lost).isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("may have been recorded").hasMessageContaining("SQLState 08006")
                .hasMessageNotContaining("INSERT").hasMessageNotContaining("injected");
        assertThat(((IdempotencyException) lost).retryable()).isTrue();
        assertThat(provider.invocations()).isZero();
    }

    // The mistakes, one method each.

    private static Made wrongPassword(TestDatabase db, Path dir) throws Exception {
        if (db.kind() == Database.H2) {
            db.connect().close(); // the in-memory database exists, with its own password
            return new Made(builder(db.url(), db.user(), "not-the-password"), "not-the-password", null);
        }
        String role = "idem_pw_" + Long.toHexString(new SecureRandom().nextLong() & Long.MAX_VALUE);
        db.update("CREATE ROLE " + role + " LOGIN PASSWORD 'the-right-one'");
        AutoCloseable hba = PasswordAuthentication.require(db, role);
        return new Made(builder(pgUrl(db, null), role, "not-the-password"), "not-the-password", () -> {
            hba.close();
            db.update("DROP ROLE " + role);
        });
    }

    private static Made unknownUser(TestDatabase db, Path dir) throws Exception {
        if (db.kind() == Database.H2) {
            db.connect().close();
            return new Made(builder(db.url(), "nobody", ""), null, null);
        }
        return new Made(builder(pgUrl(db, null), "idem_no_such_role", "pw"), "pw", null);
    }

    private static Made unknownDatabase(TestDatabase db, Path dir) {
        return new Made(builder(pgUrl(db, "idem_no_such_database"), db.user(), db.password()), null, null);
    }

    private static Made foreignTable(TestDatabase db, Path dir) {
        db.update("CREATE TABLE tool_operations (id INT PRIMARY KEY, customer VARCHAR(40))");
        return new Made(builder(db.url(), db.user(), db.password()), null, () -> dropTables(db));
    }

    private static Made olderSchema(TestDatabase db, Path dir) {
        db.runtime().call(TOOL, "refund:0", PAYLOAD, String.class, () -> "an older version wrote this");
        db.update("DROP VIEW tool_operation_attempts");
        db.update("ALTER TABLE tool_operations DROP COLUMN attempt_id");
        return new Made(builder(db.url(), db.user(), db.password()), null, () -> dropTables(db));
    }

    private static Made readOnly(TestDatabase db, Path dir) throws Exception {
        if (db.kind() == Database.H2) {
            String url = "jdbc:h2:file:" + dir.resolve("operations");
            createdBy(url + ";AUTO_SERVER=TRUE");
            return new Made(configuredBy(url + ";ACCESS_MODE_DATA=r"), null, null);
        }
        String role = "idem_ro_" + Long.toHexString(new SecureRandom().nextLong() & Long.MAX_VALUE);
        db.update("CREATE ROLE " + role + " LOGIN");
        db.update("ALTER ROLE " + role + " SET default_transaction_read_only = on");
        return new Made(builder(pgUrl(db, null), role, "unused"), null, () -> db.update("DROP ROLE " + role));
    }

    private static Made lockedFile(TestDatabase db, Path dir) throws Exception {
        Path file = dir.resolve("operations");
        String url = "jdbc:h2:file:" + file + ";AUTO_SERVER=TRUE";
        createdBy(url);
        String secret = Files.readString(dir.resolve("operations.secret")).strip();
        H2FileHolder holder = H2FileHolder.hold(file, "sa", secret);
        return new Made(configuredBy(url), secret, holder);
    }

    private static Made corruptedFile(TestDatabase db, Path dir) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("operations") + ";AUTO_SERVER=TRUE";
        createdBy(url);
        Path mvDb = dir.resolve("operations.mv.db");
        byte[] garbage = new byte[(int) Files.size(mvDb)];
        new SecureRandom().nextBytes(garbage);
        Files.write(mvDb, garbage);
        return new Made(configuredBy(url), null, null);
    }

    private static Made deletedSecret(TestDatabase db, Path dir) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("operations") + ";AUTO_SERVER=TRUE";
        createdBy(url);
        Files.delete(dir.resolve("operations.secret"));
        return new Made(configuredBy(url), null, null);
    }

    private static Made foreignSecret(TestDatabase db, Path dir) throws Exception {
        Path other = Files.createDirectories(dir.resolve("other"));
        createdBy("jdbc:h2:file:" + other.resolve("operations") + ";AUTO_SERVER=TRUE");
        String url = "jdbc:h2:file:" + dir.resolve("operations") + ";AUTO_SERVER=TRUE";
        createdBy(url);
        String foreign = Files.readString(other.resolve("operations.secret"));
        Files.writeString(dir.resolve("operations.secret"), foreign);
        return new Made(configuredBy(url), foreign.strip(), null);
    }

    // Helpers.

    /** Leaves the test's database without the library's tables for the next row. */
    private static void dropTables(TestDatabase db) {
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            TestDatabase.dropLibraryTables(st);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static IdempotentRuntime builder(String url, String user, String password) {
        return IdempotentRuntime.builder().store("default", url, user, password).build();
    }

    /** Creates the embedded store {@code url} (its file, secret and schema) with one call, and closes it. */
    private static void createdBy(String url) {
        try (IdempotentRuntime runtime = configuredBy(url)) {
            runtime.call(TOOL, "refund:0", PAYLOAD, String.class, () -> "stored");
        }
    }

    /** A runtime configured the way the agent and fromEnvironment() configure it: a URL, nothing else. */
    private static IdempotentRuntime configuredBy(String url) {
        RuntimeConfiguration configuration = new RuntimeConfiguration(Map.of("idempotent.store.url", url), Map.of());
        return IdempotentRuntime.builder().settings(configuration.store("default")).build();
    }

    /** The test server's URL without its credentials, on {@code database} (null: the test's own). */
    private static String pgUrl(TestDatabase db, String database) {
        Matcher m = PG_URL.matcher(db.url());
        if (!m.matches()) {
            throw new IllegalStateException("unexpected URL " + db.url());
        }
        return "jdbc:postgresql://" + m.group(1) + "/" + (database == null ? m.group(2) : database);
    }

    /**
     * The embedded PostgreSQL trusts every local connection; this makes it check the password of
     * one role (a line for it before the others in pg_hba.conf) until closed.
     */
    private static final class PasswordAuthentication implements AutoCloseable {
        private final TestDatabase db;
        private final Path hba;
        private final String original;

        private PasswordAuthentication(TestDatabase db, Path hba, String original) {
            this.db = db;
            this.hba = hba;
            this.original = original;
        }

        static AutoCloseable require(TestDatabase db, String role) throws Exception {
            Path hba = Path.of(db.queryString("SHOW hba_file"));
            String original = Files.readString(hba);
            Files.writeString(hba, "host all " + role + " all scram-sha-256\n" + original);
            db.queryString("SELECT pg_reload_conf()");
            TestDatabase.await(() -> refused(db, role), Duration.ofSeconds(20), "pg_hba.conf to be reloaded");
            return new PasswordAuthentication(db, hba, original);
        }

        private static boolean refused(TestDatabase db, String role) {
            try {
                java.sql.DriverManager.getConnection(pgUrl(db, null), role, "not-the-password").close();
                return false;
            } catch (SQLException e) {
                return "28P01".equals(e.getSQLState());
            }
        }

        @Override
        public void close() throws Exception {
            Files.writeString(hba, original);
            db.queryString("SELECT pg_reload_conf()");
        }
    }
}
