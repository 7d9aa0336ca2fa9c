package io.idempotent.runtime.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.testing.StoreExtension;
import io.idempotent.runtime.testing.TestDatabase;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * PostgreSQL's {@code tool_operations_open} (migration V2): it holds exactly the operations in
 * progress or awaiting reconciliation through every change of state, and a store created by the
 * first version gets it (with the operations that version left open) when {@code create} applies
 * V2, or is refused in {@code validate} mode with the migration to apply named.
 */
class OpenOperationsTest {

    private static final Duration LEASE = Duration.ofMinutes(5);
    private static final Duration RETENTION = Duration.ofDays(1);

    @AfterEach
    void dropTables() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            TestDatabase.dropLibraryTables(st);
        }
    }

    @Test
    void theOpenTableHoldsTheOperationsInProgressOrAwaitingReconciliationThroughEveryChange() throws Exception {
        JdbcOperationStore store = store(SchemaMode.CREATE);
        long done = claim(store, "done");
        long unsure = claim(store, "unsure");
        long safe = claim(store, "safe");
        claim(store, "running");
        assertThat(open()).containsExactlyInAnyOrder("in_progress done", "in_progress unsure", "in_progress safe",
                "in_progress running");

        AttemptEnd end = new AttemptEnd(null, null);
        assertThat(store.complete("refund", "done", done, "a-done", "\"r\"", end).applied()).isTrue();
        assertThat(store.fail("refund", "unsure", unsure, "a-unsure", false, "{}", end).applied()).isTrue();
        assertThat(store.fail("refund", "safe", safe, "a-safe", true, "{}", end).applied()).isTrue();
        assertThat(open()).containsExactlyInAnyOrder("needs_reconciliation unsure", "in_progress running");
        assertThat(store.awaitingReconciliation(null, Duration.ZERO, 10)).extracting(StoredOperation::key)
                .containsExactly("unsure");
        assertThat(store.inProgress(10)).extracting(StoredOperation::key).containsExactly("running");
        assertThat(store.countByToolAndStatus(OperationStatus.NEEDS_RECONCILIATION)).singleElement()
                .satisfies(count -> assertThat(count.count()).isEqualTo(1));

        // A retry of the safely failed operation takes it over: in progress again.
        assertThat(store.takeOver(new Takeover("a-2", "refund", "safe", OperationStatus.FAILED_SAFE, safe, false,
                false, LEASE, RETENTION, true)).applied()).isTrue();
        assertThat(store.settleNotApplied("refund", "unsure", unsure, "operator").applied()).isTrue();
        assertThat(open()).containsExactlyInAnyOrder("in_progress safe", "in_progress running");
        store.close();
    }

    @Test
    void aStoreOfTheFirstVersionGetsItsOpenOperationsWhenCreateAppliesTheSecondMigration() throws Exception {
        firstVersion();
        JdbcOperationStore store = store(SchemaMode.CREATE);
        store.ensureSchema();
        assertThat(open()).containsExactlyInAnyOrder("in_progress old-running", "needs_reconciliation old-unsure");
        assertThat(store.awaitingReconciliation(null, Duration.ZERO, 10)).extracting(StoredOperation::key)
                .containsExactly("old-unsure");
        assertThat(indexes()).containsExactlyInAnyOrder("tool_operations_pk", "tool_operations_expiry_idx");
        store.close();
        // The next start does not run the first migration again: its partial indexes stay dropped.
        JdbcOperationStore again = store(SchemaMode.CREATE);
        again.ensureSchema();
        assertThat(indexes()).containsExactlyInAnyOrder("tool_operations_pk", "tool_operations_expiry_idx");
        again.close();
    }

    @Test
    void aStoreOfTheFirstVersionIsRefusedInValidateModeWithTheSecondMigrationNamed() throws Exception {
        firstVersion();
        JdbcOperationStore store = store(SchemaMode.VALIDATE);
        assertThatThrownBy(store::ensureSchema).isInstanceOf(StoreConfigurationException.class)
                .hasMessageContaining("table tool_operations_open does not exist")
                .hasMessageContaining("db/idempotent/postgresql/V2__idempotent_open_operations.sql")
                .hasMessageNotContaining("V1__");
        store.close();
    }

    private static long claim(JdbcOperationStore store, String key) {
        ClaimResult claim = store.claim(new ClaimRequest("a-" + key, key, "refund", "h", "{}", LEASE, RETENTION, true));
        assertThat(claim).isInstanceOf(ClaimResult.Inserted.class);
        return ((ClaimResult.Inserted) claim).leaseToken();
    }

    /** The schema as the first version's migration made it, with operations in each state. */
    private static void firstVersion() throws Exception {
        String v1;
        try (InputStream in = OpenOperationsTest.class.getClassLoader()
                .getResourceAsStream(new PostgresDialect().migrationResource())) {
            v1 = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try (Connection c = connect(); Statement st = c.createStatement()) {
            for (String sql : StoreSchema.statements(v1)) {
                st.execute(sql);
            }
            for (String[] row : new String[][] {{"old-running", "in_progress"}, {"old-unsure", "needs_reconciliation"},
                {"old-done", "completed"}}) {
                st.execute("INSERT INTO tool_operations (tool, operation_key, payload_hash, payload_json, status,"
                        + " lease_token, effect_started, attempts, created_at, updated_at, retention_ms, expires_at)"
                        + " VALUES ('refund', '" + row[0] + "', 'h', '{}', '" + row[1] + "', 1, TRUE, 1, now(), now(),"
                        + " 86400000, now() + interval '1 day')");
            }
        }
    }

    /** The open table's rows, as "status key". */
    private static List<String> open() throws SQLException {
        return strings("SELECT status || ' ' || operation_key FROM tool_operations_open");
    }

    private static List<String> indexes() throws SQLException {
        return strings("SELECT indexname FROM pg_indexes WHERE tablename = 'tool_operations'");
    }

    private static List<String> strings(String query) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }

    private static JdbcOperationStore store(SchemaMode mode) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(StoreExtension.postgresUrl());
        dataSource.setUser("postgres");
        dataSource.setPassword("postgres");
        return new JdbcOperationStore("default", dataSource, new PostgresDialect(), mode, null);
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(StoreExtension.postgresUrl(), "postgres", "postgres");
    }
}
