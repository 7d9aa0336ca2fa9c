package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.CapturedLog;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.StoreExtension;
import io.idempotent.runtime.testing.TestDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;
import org.postgresql.PGProperty;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;

/**
 * What one PostgreSQL server can show of a failover (the cluster tests run a real primary and
 * standby): a session that turns read-only while the store runs (the store's connections meet a
 * server being switched) is retryable, and the same runtime answers once it is writable again; a
 * standby at start is a configuration error naming {@code targetServerType=primary}; a primary
 * whose standbys are asynchronous is named when the store starts, and a user who may not read
 * that is not refused.
 */
class StoreServerRoleTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();

    @Test
    void aSessionThatTurnsReadOnlyWhileTheStoreRunsIsRetryableAndTheSameRuntimeRecovers() throws Exception {
        String suffix = Long.toHexString(new SecureRandom().nextLong() & Long.MAX_VALUE);
        String role = "idem_switch_" + suffix;
        String database = "idem_switch_" + suffix;
        String adminUrl = StoreExtension.postgresUrl();
        admin(adminUrl, "CREATE ROLE " + role + " LOGIN", "CREATE DATABASE " + database + " OWNER " + role);
        FakeProvider provider = new FakeProvider();
        try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default",
                adminUrl.replaceFirst("/postgres\\?user=postgres&?", "/" + database + "?"), role, "unused").build()) {
            assertThat(refund(runtime, provider, "refund:before")).isEqualTo("done:refund:before");

            // The switch: the store's connections are cut, and the server they reach again is read-only.
            admin(adminUrl, "ALTER ROLE " + role + " SET default_transaction_read_only = on");
            terminateSessions(adminUrl, role);
            StoreUnavailableException readOnly = firstReadOnlyRefusal(runtime, provider);
            assertThat(readOnly.retryable()).isTrue();
            assertThat(readOnly).hasMessageContaining("the body did not run").hasMessageContaining("read-only");

            // The pool drops each connection that answered read-only; new ones are writable again.
            admin(adminUrl, "ALTER ROLE " + role + " RESET default_transaction_read_only");
            assertThat(StoreRecoveryTest.firstSuccess(() -> refund(runtime, provider, "refund:after"),
                    Duration.ofSeconds(30))).isEqualTo("done:refund:after");
            assertThat(provider.invocations()).as("bodies run").isEqualTo(2);
        } finally {
            terminateSessions(adminUrl, role);
            admin(adminUrl, "DROP DATABASE IF EXISTS " + database, "DROP ROLE IF EXISTS " + role);
        }
    }

    /**
     * Calls new keys until one is refused because the session is read-only (the first may meet a
     * connection cut by the switch). Every refusal must be retryable, and no body may run.
     */
    private static StoreUnavailableException firstReadOnlyRefusal(IdempotentRuntime runtime, FakeProvider provider) {
        int before = provider.invocations();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (int i = 0; System.nanoTime() < end; i++) {
            try {
                refund(runtime, provider, "refund:during-" + i);
                throw new AssertionError("a call succeeded on a read-only session");
            } catch (StoreUnavailableException e) {
                assertThat(provider.invocations()).as("bodies run during the switch").isEqualTo(before);
                if (e.getMessage().contains("25006")) {
                    return e;
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        throw new AssertionError("no call met the read-only session within 30 s");
    }

    @Test
    void aPrimaryWithAnAsynchronousStandbyIsNamedAtStartAndAStandbyIsAConfigurationError(@TempDir Path data)
            throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        EmbeddedPostgres postgres = start(data, port);
        String url = postgres.getJdbcUrl("postgres", "postgres");
        FakeProvider provider = new FakeProvider();
        try {
            try (Connection replication = replicationConnection(url);
                    PGReplicationStream standby = streamFromNow(url, replication)) {
                TestDatabase.await(() -> queryLong(url, "SELECT count(*) FROM pg_stat_replication"
                        + " WHERE sync_state = 'async'") == 1, Duration.ofSeconds(30), "the standby to stream");
                try (CapturedLog log = new CapturedLog();
                        IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", url, "postgres",
                                "postgres").build()) {
                    assertThat(refund(runtime, provider, "refund:1")).isEqualTo("done:refund:1");
                    assertThat(log.lines()).filteredOn(line -> line.contains("asynchronous")).singleElement()
                            .satisfies(line -> assertThat(line).contains("store \"default\"")
                                    .contains("1 of 1 standby").contains("downstream key"));
                }
                // A user who may not read pg_stat_replication's sync_state: nothing is said, nothing refused.
                admin(url, "CREATE ROLE idem_plain LOGIN", "GRANT ALL ON ALL TABLES IN SCHEMA public TO idem_plain",
                        "GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO idem_plain");
                try (CapturedLog log = new CapturedLog();
                        IdempotentRuntime runtime = IdempotentRuntime.builder().schema(SchemaMode.VALIDATE)
                                .store("default", url.substring(0, url.indexOf('?')), "idem_plain", "unused")
                                .build()) {
                    assertThat(refund(runtime, provider, "refund:2")).isEqualTo("done:refund:2");
                    assertThat(log.text()).doesNotContain("asynchronous");
                }
            }
            postgres.close();

            // The same server as a standby (in recovery, read-only): the store refuses it at start.
            Files.createFile(data.resolve("standby.signal"));
            postgres = start(data, port);
            assertThat(queryLong(url, "SELECT CASE WHEN pg_is_in_recovery() THEN 1 ELSE 0 END")).isEqualTo(1);
            try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", url, "postgres", "postgres")
                    .build()) {
                assertThatThrownBy(() -> refund(runtime, provider, "refund:3"))
                        .isInstanceOf(StoreConfigurationException.class)
                        .hasMessageContaining("standby")
                        .hasMessageContaining("targetServerType=primary")
                        .hasMessageContaining("the body did not run")
                        .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isFalse());
            }
            assertThat(provider.invocations()).isEqualTo(2);
        } finally {
            postgres.close();
        }
    }

    private static EmbeddedPostgres start(Path data, int port) throws IOException {
        return EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false).setPort(port).start();
    }

    /** A physical replication connection: to the server, a standby like any other. */
    private static Connection replicationConnection(String url) throws SQLException {
        Properties properties = new Properties();
        PGProperty.USER.set(properties, "postgres");
        PGProperty.PASSWORD.set(properties, "postgres");
        PGProperty.REPLICATION.set(properties, "true");
        PGProperty.ASSUME_MIN_SERVER_VERSION.set(properties, "9.4");
        PGProperty.PREFER_QUERY_MODE.set(properties, "simple");
        return DriverManager.getConnection(url.substring(0, url.indexOf('?')), properties);
    }

    private static PGReplicationStream streamFromNow(String url, Connection replication) throws SQLException {
        AtomicReference<String> lsn = new AtomicReference<>();
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_current_wal_lsn()")) {
            rs.next();
            lsn.set(rs.getString(1));
        }
        return replication.unwrap(PGConnection.class).getReplicationAPI().replicationStream().physical()
                .withStartPosition(LogSequenceNumber.valueOf(lsn.get())).start();
    }

    private static String refund(IdempotentRuntime runtime, FakeProvider provider, String key) {
        return runtime.call(REFUND, key, Map.of("invoiceId", key), String.class, () -> provider.apply(key, key));
    }

    private static void admin(String url, String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
    }

    /** Ends every session of {@code role} and waits until the server has none left. */
    private static void terminateSessions(String url, String role) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
                java.sql.PreparedStatement ps = c.prepareStatement("SELECT pg_terminate_backend(pid) FROM"
                        + " pg_stat_activity WHERE usename = ?")) {
            ps.setString(1, role);
            ps.executeQuery().close();
        }
        TestDatabase.await(() -> queryLong(url, "SELECT count(*) FROM pg_stat_activity WHERE usename = '" + role
                + "'") == 0, Duration.ofSeconds(30), "the sessions of " + role + " to end");
    }

    private static long queryLong(String url, String sql) {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
