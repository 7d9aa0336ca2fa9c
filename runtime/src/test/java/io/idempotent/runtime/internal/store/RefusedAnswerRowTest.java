package io.idempotent.runtime.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.CountingMetrics;
import io.idempotent.runtime.CountingMetrics.Event;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.internal.RuntimeAccess;
import io.idempotent.runtime.testing.CapturedLog;
import io.idempotent.runtime.testing.StoreExtension;
import io.idempotent.runtime.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The attempt-log writer fed a row that PostgreSQL refuses for good (a NUL byte in a text
 * column: "invalid byte sequence for encoding UTF8: 0x00", SQLState 22021), among rows it takes:
 * the writer's thread lives, the other rows are written, the refused one is counted in the
 * metrics and logged by its tool and key, never its data (issue 47, item 2).
 */
class RefusedAnswerRowTest {

    private static final String TOOL = "refused_row_tool";

    private IdempotentRuntime runtime;

    @AfterEach
    void cleanUp() throws SQLException {
        if (runtime != null) {
            runtime.close();
        }
        try (Connection c = DriverManager.getConnection(StoreExtension.postgresUrl()); Statement st = c.createStatement()) {
            TestDatabase.dropLibraryTables(st);
        }
    }

    @Test
    void aRefusedRowIsSplitOutCountedAndLoggedAndTheWriterLivesOn() throws Exception {
        CountingMetrics metrics = new CountingMetrics();
        runtime = IdempotentRuntime.builder().store("default", StoreExtension.postgresUrl(), null, null)
                .metrics(metrics).build();
        OperationStore store = RuntimeAccess.engine(runtime).stores().get("default", TOOL);
        store.ensureSchema();
        List<String> good = new ArrayList<>();
        try (CapturedLog log = new CapturedLog()) {
            for (int i = 0; i < 40; i++) {
                String key = "k" + i;
                // One row among forty carries a NUL byte in its detail (a text column).
                String detail = i == 17 ? "lease held \u0000 secret-detail" : "lease held";
                store.logAttempt(new AttemptRow("a" + i, key, TOOL, AttemptOutcome.IN_PROGRESS, 1, "h", null, detail,
                        Instant.now()));
                if (i != 17) {
                    good.add(key);
                }
            }
            TestDatabase.await(() -> metrics.count(TOOL, Event.ATTEMPT_LOG_ROWS_REFUSED) == 1
                    && rows(TOOL) == good.size(), Duration.ofSeconds(30), "the 39 other rows written, the refused one"
                    + " counted (rows: " + rows(TOOL) + ", refused: " + metrics.count(TOOL, Event.ATTEMPT_LOG_ROWS_REFUSED)
                    + ")");
            assertThat(log.text()).contains("k17").contains(TOOL).doesNotContain("secret-detail");
        }
        Thread writer = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("idempotent-attempt-log-default")).findFirst().orElseThrow();
        assertThat(writer.isAlive()).as("the attempt-log writer's thread").isTrue();

        // The writer still writes what comes after.
        store.logAttempt(new AttemptRow("after", "k-after", TOOL, AttemptOutcome.IN_PROGRESS, 1, "h", null, "x",
                Instant.now()));
        TestDatabase.await(() -> rows(TOOL) == good.size() + 1, Duration.ofSeconds(30), "the row after the refusal");
        assertThat(writer.isAlive()).isTrue();
    }

    private static long rows(String tool) {
        try (Connection c = DriverManager.getConnection(StoreExtension.postgresUrl());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM " + StoreTables.LOG + " WHERE tool = '" + tool
                        + "'")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            return -1;
        }
    }
}
