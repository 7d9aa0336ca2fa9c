package io.idempotent.runtime.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreConfigurationException;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The outbox's migration (H2 V3, PostgreSQL V4) on a store made by the previous version:
 * {@code create} applies it at the first start (the old operations stay readable, and the outbox
 * can be read), and {@code validate} refuses the store naming that migration alone.
 */
class OutboxMigrationTest {

    private final ApprovalMigrationTest previous = new ApprovalMigrationTest();

    @AfterEach
    void dropTables() throws SQLException {
        previous.dropTables();
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void createUpgradesAStoreOfThePreviousVersion(String database) throws Exception {
        Dialect dialect = previous.versionBefore(database, StoreTables.OUTBOX);
        JdbcOperationStore store = new JdbcOperationStore("default", previous.dataSource, dialect, SchemaMode.CREATE,
                null);
        assertThat(store.find("refund", "old-done")).get().extracting(StoredOperation::status)
                .isEqualTo(OperationStatus.COMPLETED);
        assertThat(store.outbox().counts().pending()).isZero();
        assertThat(store.outbox().undelivered(10)).isEmpty();
        store.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void validateRefusesAStoreOfThePreviousVersionNamingOnlyTheOutboxMigration(String database) throws Exception {
        Dialect dialect = previous.versionBefore(database, StoreTables.OUTBOX);
        JdbcOperationStore store = new JdbcOperationStore("default", previous.dataSource, dialect, SchemaMode.VALIDATE,
                null);
        String migration = dialect.migrations().get(dialect.migrations().size() - 1).resource();
        assertThat(migration).contains("outbox");
        assertThatThrownBy(store::ensureSchema).isInstanceOf(StoreConfigurationException.class)
                .hasMessageContaining("table tool_operation_outbox does not exist")
                .hasMessageContaining(migration)
                .hasMessageNotContaining("approvals");
        store.close();
    }
}
