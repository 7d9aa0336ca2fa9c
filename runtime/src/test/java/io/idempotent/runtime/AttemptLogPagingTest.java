package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A looping caller gives one key thousands of answers: every answer is written, and {@code find}
 * loads only the first page of the log (the original decision first), with the log's size.
 */
class AttemptLogPagingTest {

    private static final int ANSWERS = 1_050;

    @OnBothDatabases
    void findLoadsTheFirstPageOfAKeyWithThousandsOfAnswers(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.SAFE).build();
        Map<String, Object> payload = Map.of("invoiceId", "invoice_842");
        for (int i = 0; i < ANSWERS; i++) {
            runtime.call(refund, "k", payload, String.class, () -> "refunded");
        }

        OperationRecord record = runtime.operations().find(refund.name(), "k").orElseThrow();
        assertThat(record.attemptLog()).hasSize(100);
        assertThat(record.attemptLog().get(0).outcome()).isEqualTo(AttemptOutcome.COMPLETED);
        assertThat(record.attemptLog().subList(1, 100)).extracting(AttemptRecord::outcome)
                .containsOnly(AttemptOutcome.REPLAYED);
        assertThat(record.attemptCount()).isEqualTo(ANSWERS);
        assertThat(record.hasMoreAttempts()).isTrue();
        assertThat(db.queryLong("SELECT COUNT(*) FROM tool_operation_attempts WHERE operation_key = ?", "k"))
                .isEqualTo(ANSWERS);

        // Every row exactly once, in the log's order, page by page: the first page is find's.
        List<AttemptRecord> read = new ArrayList<>();
        int offset = 0;
        AttemptPage page;
        do {
            page = runtime.operations().attemptLog("default", refund.name(), "k", offset, 333);
            assertThat(page.offset()).isEqualTo(offset);
            assertThat(page.total()).isEqualTo(ANSWERS);
            read.addAll(page.attempts());
            offset = page.nextOffset();
        } while (page.hasMore());
        assertThat(read).hasSize(ANSWERS);
        assertThat(read).extracting(AttemptRecord::attemptId).doesNotHaveDuplicates();
        assertThat(read.subList(0, 100)).isEqualTo(record.attemptLog());
        assertThat(read).extracting(AttemptRecord::startedAt).isSorted();
        assertThat(runtime.operations().attemptLog("default", refund.name(), "k", ANSWERS, 10).attempts()).isEmpty();
    }

    @OnBothDatabases
    void settlementsAreReadByTheirOutcomeWhereverTheyAreInTheLog(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy refund = Policies.manualReview("refund", Retry.NEVER).build();
        Map<String, Object> payload = Map.of("invoiceId", "invoice_842");
        assertThatThrownBy(() -> runtime.call(refund, "k", payload, String.class, () -> {
            throw new IllegalStateException("reply lost");
        })).isInstanceOf(IllegalStateException.class);
        for (int i = 0; i < 150; i++) {
            assertThatThrownBy(() -> runtime.call(refund, "k", payload, String.class, () -> "refunded"))
                    .isInstanceOf(NeedsReconciliationException.class);
        }
        runtime.operations().settleNotApplied("default", refund.name(), "k", "no refund at the PSP", "alice");

        assertThat(runtime.operations().find(refund.name(), "k").orElseThrow().attemptLog())
                .extracting(AttemptRecord::outcome).doesNotContain(AttemptOutcome.SETTLED_NOT_APPLIED);
        AttemptPage settled = runtime.operations().attemptLog("default", refund.name(), "k",
                EnumSet.of(AttemptOutcome.SETTLED_APPLIED, AttemptOutcome.SETTLED_NOT_APPLIED), 0, 10);
        assertThat(settled.total()).isEqualTo(1);
        assertThat(settled.attempts()).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo(AttemptOutcome.SETTLED_NOT_APPLIED);
            assertThat(a.detail()).contains("alice");
        });
    }

    @OnBothDatabases
    void aPageOutOfRangeIsRefused(TestDatabase db) {
        Operations operations = db.runtime().operations();
        assertThatThrownBy(() -> operations.attemptLog("default", "refund", "k", -1, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be negative, was -1");
        assertThatThrownBy(() -> operations.attemptLog("default", "refund", "k", 0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be 1 to 1000, was 0");
        assertThatThrownBy(() -> operations.attemptLog("default", "refund", "k", 0, 1001))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be 1 to 1000, was 1001");
        assertThatThrownBy(() -> operations.attemptLog("default", "refund", "k", Set.of(), 0, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one outcome");
        assertThat(operations.attemptLog("default", "refund", "unknown", 0, 10))
                .isEqualTo(new AttemptPage(List.of(), 0, 0));
    }
}
