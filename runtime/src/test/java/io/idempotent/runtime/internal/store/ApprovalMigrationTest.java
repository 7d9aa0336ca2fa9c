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
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The approval gates' migration (H2 V2, PostgreSQL V3) on a store made by the previous version:
 * {@code create} applies it at the first start (the old operations stay readable, and a request
 * can then be recorded), and {@code validate} refuses the store naming that migration alone.
 */
class ApprovalMigrationTest {

    private static final Duration LEASE = Duration.ofMinutes(5);
    private static final Duration RETENTION = Duration.ofDays(1);

    DataSource dataSource;

    @AfterEach
    void dropTables() throws SQLException {
        if (dataSource instanceof PGSimpleDataSource) {
            try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
                TestDatabase.dropLibraryTables(st);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void createUpgradesAStoreOfThePreviousVersionAndARequestCanThenBeRecorded(String database) throws Exception {
        Dialect dialect = versionBefore(database, StoreTables.APPROVALS);
        JdbcOperationStore store = new JdbcOperationStore("default", dataSource, dialect, SchemaMode.CREATE, null);
        assertThat(store.find("refund", "old-done")).get().extracting(StoredOperation::status)
                .isEqualTo(OperationStatus.COMPLETED);

        ClaimResult requested = store.requestApproval(new ClaimRequest("a-1", "new", "refund", "h", "{}", LEASE,
                RETENTION, true), new ApprovalRequest("step-1", "1@host", Duration.ofHours(1)));
        assertThat(requested).isInstanceOf(ClaimResult.Inserted.class);
        assertThat(store.find("refund", "new")).get().extracting(StoredOperation::status)
                .isEqualTo(OperationStatus.AWAITING_APPROVAL);
        assertThat(store.pendingApprovals(null, 0, 10)).singleElement()
                .satisfies(p -> assertThat(p.step()).isEqualTo("step-1"));
        store.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void validateRefusesAStoreOfThePreviousVersionNamingOnlyTheApprovalMigration(String database) throws Exception {
        Dialect dialect = versionBefore(database, StoreTables.APPROVALS);
        JdbcOperationStore store = new JdbcOperationStore("default", dataSource, dialect, SchemaMode.VALIDATE, null);
        String migration = dialect.migrations().stream().filter(m -> m.mark().equals(StoreTables.APPROVALS))
                .findFirst().orElseThrow().resource();
        assertThat(migration).contains("approvals");
        assertThatThrownBy(store::ensureSchema).isInstanceOf(StoreConfigurationException.class)
                .hasMessageContaining("table tool_operation_approvals does not exist")
                .hasMessageContaining(migration)
                .hasMessageNotContaining("V1__")
                .hasMessageNotContaining("open_operations");
        store.close();
    }

    /**
     * A database with the migrations before the one marked by {@code mark} applied (the schema of
     * the version before that migration) and an operation.
     */
    Dialect versionBefore(String database, String mark) throws Exception {
        Dialect dialect;
        if (database.equals("h2")) {
            JdbcDataSource h2 = new JdbcDataSource();
            h2.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
            dataSource = h2;
            dialect = new H2Dialect();
        } else {
            PGSimpleDataSource postgres = new PGSimpleDataSource();
            postgres.setURL(StoreExtension.postgresUrl());
            postgres.setUser("postgres");
            postgres.setPassword("postgres");
            dataSource = postgres;
            dialect = new PostgresDialect();
        }
        List<Dialect.Migration> earlier = dialect.migrations().subList(0, dialect.migrations().stream()
                .map(Dialect.Migration::mark).toList().indexOf(mark));
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            for (Dialect.Migration migration : earlier) {
                String text;
                try (InputStream in = getClass().getClassLoader().getResourceAsStream(migration.resource())) {
                    text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
                for (String sql : StoreSchema.statements(text)) {
                    st.execute(sql);
                }
            }
            st.execute("INSERT INTO tool_operations (tool, operation_key, payload_hash, payload_json, status,"
                    + " lease_token, effect_started, attempts, created_at, updated_at, retention_ms, expires_at)"
                    + " VALUES ('refund', 'old-done', 'h', '{}', 'completed', 1, TRUE, 1, CURRENT_TIMESTAMP,"
                    + " CURRENT_TIMESTAMP, 86400000, CURRENT_TIMESTAMP)");
        }
        return dialect;
    }
}
