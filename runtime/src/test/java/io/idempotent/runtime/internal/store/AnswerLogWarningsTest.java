package io.idempotent.runtime.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.testing.CapturedLog;
import io.idempotent.runtime.testing.FaultyDataSource;
import io.idempotent.runtime.testing.FaultyDataSource.Strike;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * While the database is down the attempt-log writer tries its batch again and again; it says so
 * in a first line, then at most one line per interval with how many writes failed since, and in
 * one line when writing succeeds again, never once per failed write.
 */
class AnswerLogWarningsTest {

    /** The statement that writes answers to the attempt log (a batch, or a caller's own). */
    private static final String ANSWER_INSERT = "payload_hash, downstream_id, detail, started_at, ended_at)";
    private static final String TOOL = "refund";
    private static final String KEY = "refund:invoice_842";
    private static final int FAILED_WRITES = 100;
    private static final int ANSWERS = 3;
    private static final String LOGGER = AnswerLog.class.getName();

    @OnBothDatabases
    void manyFailedWritesAreReportedOncePerIntervalAndTheRecoveryOnce(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        // Each reading of the clock is a second later, and the writer reads it once per failed
        // write: a hundred failures span a hundred seconds, ten intervals of ten.
        AtomicLong now = new AtomicLong();
        AnswerLog.Pacing pacing = new AnswerLog.Pacing(Duration.ofMillis(1), Duration.ofSeconds(10),
                () -> now.getAndAdd(Duration.ofSeconds(1).toNanos()));
        JdbcOperationStore store = new JdbcOperationStore("default", "test", faulty, faulty, Dialect.detect(db.url()),
                SchemaMode.CREATE, null, new AnswerLogLimits(100, Duration.ofSeconds(5)), pacing);
        assertThat(store.claim(new ClaimRequest("a0", KEY, TOOL, "h", "{}", Duration.ofHours(1), Duration.ofDays(1),
                true))).isInstanceOf(ClaimResult.Inserted.class);
        faulty.breakUpdates(ANSWER_INSERT, FAILED_WRITES, Strike.BEFORE_EXECUTING);

        try (CapturedLog log = new CapturedLog()) {
            for (int i = 0; i < ANSWERS; i++) {
                store.logAttempt(new AttemptRow("r" + i, KEY, TOOL, AttemptOutcome.REPLAYED, 0, "h", null,
                        "secret-detail", Instant.now()));
            }
            TestDatabase.await(() -> db.queryLong("SELECT count(*) FROM tool_operation_attempts WHERE outcome = ?",
                    "REPLAYED") == ANSWERS, Duration.ofSeconds(60), "the answers written once the store answers again");
            // The writer logs while it holds the write lock: once flush() has it, the line is out.
            store.flushAttemptLog();

            assertThat(faulty.injected()).isEqualTo(FAILED_WRITES);
            List<String> warnings = linesOf(log, "WARNING");
            // The first failure (second 0), then one line at seconds 10, 20, ... 90.
            assertThat(warnings).as(String.join("\n", warnings)).hasSize(10);
            assertThat(warnings.get(0)).contains("store default: could not write ")
                    .contains("to the attempt log (tools: refund); they stay queued and are tried again");
            assertThat(warnings.get(1)).contains("store default: still could not write to the attempt log: 10 failed"
                    + " writes since the last line");
            assertThat(linesOf(log, "INFO")).singleElement().asString().contains("store default: the attempt log is"
                    + " written again after " + FAILED_WRITES + " failed writes");
            assertThat(log.text()).doesNotContain("secret-detail").doesNotContain(KEY);
        }
        store.close();
    }

    private static List<String> linesOf(CapturedLog log, String level) {
        return log.lines().stream().filter(l -> l.startsWith(level + " " + LOGGER + ":")).toList();
    }
}
