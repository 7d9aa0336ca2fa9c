package io.idempotent.examples.transactional;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A JVM started with {@code -javaagent:} killed ({@code Runtime.halt}) after its tool wrote a
 * ledger line in the application's own database and before anything else committed. A
 * transactional tool's write rolls back with its claim: nothing is committed, the next JVM's call
 * runs the body once (its repeat replays), one line in the table. The same tool without {@code transactional} (its
 * write commits on its own, as every tool's did before) leaves a line and a claim whose outcome
 * is uncertain: the next call after the lease is answered "needs reconciliation". The transactional
 * crash and retry on both databases (an H2 file the JVMs open one after the other, and PostgreSQL);
 * the contrast on PostgreSQL only: it shows that the kill comes after a write the database kept,
 * which the transactional runs also show on H2 by their "WROTE" line before the halt.
 */
class TransactionalCrashIT {

    enum Db {
        H2,
        POSTGRESQL
    }

    private static final String USER_PASSWORD = "ledger-secret";
    private static EmbeddedPostgres postgres;

    @TempDir
    Path dir;

    @AfterAll
    static void stopPostgres() throws IOException {
        if (postgres != null) {
            postgres.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Db.class)
    void aTransactionalToolsJvmKilledAfterItsWriteCommitsNothingAndTheRetryWritesOnce(Db db) {
        Target target = target(db);
        String entry = "entry_" + UUID.randomUUID().toString().substring(0, 8);
        String key = "ledger:" + entry;

        Forked killed = fork(target, "transactional", entry, true);
        assertThat(killed.exitCode).as(killed.output).isEqualTo(42);
        assertThat(killed.output).contains("WROTE " + entry);
        assertThat(target.ledgerLines(entry)).as("the killed JVM's write").isZero();
        assertThat(target.status("crash_ledger_entry", key)).as("the killed JVM's claim").isEqualTo("no row");

        // The retry, and a repeat of it that replays.
        Forked retry = fork(target, "transactional", entry, false);
        assertThat(retry.exitCode).as(retry.output).isZero();
        assertThat(retry.lines("WROTE ")).containsExactly("WROTE " + entry);
        assertThat(retry.lines("RESULT ")).containsExactly("RESULT entry " + entry + " by pid " + retry.pid,
                "RESULT entry " + entry + " by pid " + retry.pid);
        assertThat(target.ledgerLines(entry)).isEqualTo(1);
        assertThat(target.status("crash_ledger_entry", key)).isEqualTo("completed");
    }

    /**
     * The contrast: the same write, not transactional, as every tool was before transactional tools.
     * One database is enough (two forks fewer): the database-specific part, the rollback, is the transactional test's.
     */
    @ParameterizedTest
    @EnumSource(value = Db.class, names = "POSTGRESQL")
    void theSameToolNotTransactionalLeavesItsWriteAndGoesToReconciliation(Db db) {
        Target target = target(db);
        String entry = "entry_" + UUID.randomUUID().toString().substring(0, 8);
        String key = "ledger:" + entry;

        Forked killed = fork(target, "plain", entry, true);
        assertThat(killed.exitCode).as(killed.output).isEqualTo(42);
        assertThat(target.ledgerLines(entry)).as("the write committed on its own").isEqualTo(1);
        assertThat(target.status("crash_ledger_entry_plain", key)).isEqualTo("in_progress");
        await(() -> target.leaseExpired("crash_ledger_entry_plain", key), "the killed JVM's lease to expire");

        Forked retry = fork(target, "plain", entry, false);
        assertThat(retry.exitCode).as(retry.output).isZero();
        assertThat(retry.lines("THROWN ")).as(retry.output)
                .containsExactly("THROWN io.idempotent.runtime.NeedsReconciliationException",
                        "THROWN io.idempotent.runtime.NeedsReconciliationException");
        assertThat(retry.lines("WROTE ")).isEmpty();
        assertThat(target.ledgerLines(entry)).isEqualTo(1);
        assertThat(target.status("crash_ledger_entry_plain", key)).isEqualTo("needs_reconciliation");
    }

    private Target target(Db db) {
        Target target;
        if (db == Db.POSTGRESQL) {
            target = new Target(startedPostgres().getJdbcUrl("postgres", "postgres"), "postgres", "postgres");
        } else {
            target = new Target("jdbc:h2:file:" + dir.resolve("app").toAbsolutePath(), "sa", USER_PASSWORD);
        }
        target.update("CREATE TABLE IF NOT EXISTS ledger (entry_id VARCHAR(40), amount_cents BIGINT)");
        return target;
    }

    private static synchronized EmbeddedPostgres startedPostgres() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return postgres;
    }

    /** One JVM with the agent on the store at {@code target}, calling the tool once. */
    private Forked fork(Target target, String tool, String entry, boolean halt) {
        String agentJar = System.getProperty("build.demo.agentJar");
        assertThat(agentJar).as("the agent jar (build.demo.agentJar)").isNotNull();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-javaagent:" + agentJar + "=store.url=" + target.url, "-cp", applicationClassPath(agentJar),
                CrashLedgerMain.class.getName(), tool, entry, Boolean.toString(halt), target.url, target.user,
                target.password));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().put("IDEMPOTENT_STORE_USER", target.user);
        builder.environment().put("IDEMPOTENT_STORE_PASSWORD", target.password);
        try {
            Process process = builder.start();
            byte[] out = process.getInputStream().readAllBytes();
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the forked JVM ends").isTrue();
            return new Forked(process.exitValue(), process.pid(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** This JVM's class path without the agent's own classes and Byte Buddy. */
    private static String applicationClassPath(String agentJar) {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.equals(agentJar))
                .filter(entry -> !entry.contains("idempotent-javaagent"))
                .filter(entry -> !Path.of(entry).endsWith(Path.of("javaagent", "target", "classes")))
                .filter(entry -> !entry.contains("byte-buddy"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
        }
    }

    private record Forked(int exitCode, long pid, String output) {
        List<String> lines(String prefix) {
            return output.lines().filter(l -> l.startsWith(prefix)).toList();
        }
    }

    /** The application's database, which is also the store's. */
    private record Target(String url, String user, String password) {

        void update(String sql) {
            try (Connection c = DriverManager.getConnection(url, user, password)) {
                c.createStatement().execute(sql);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        long ledgerLines(String entry) {
            return query("SELECT count(*) FROM ledger WHERE entry_id = ?", entry).map(Long::parseLong).orElse(0L);
        }

        String status(String tool, String key) {
            return query("SELECT status FROM tool_operations WHERE tool = ? AND operation_key = ?", tool, key)
                    .orElse("no row");
        }

        boolean leaseExpired(String tool, String key) {
            return query("SELECT CASE WHEN lease_until < CURRENT_TIMESTAMP THEN 'yes' ELSE 'no' END FROM"
                    + " tool_operations WHERE tool = ? AND operation_key = ?", tool, key).orElse("no").equals("yes");
        }

        private java.util.Optional<String> query(String sql, String... args) {
            try (Connection c = DriverManager.getConnection(url, user, password);
                    PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < args.length; i++) {
                    ps.setString(i + 1, args[i]);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? java.util.Optional.ofNullable(rs.getString(1)) : java.util.Optional.empty();
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
