package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.FaultyDataSource;
import io.idempotent.runtime.testing.FaultyDataSource.Strike;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.Map;

/**
 * A write that fails around a claim, a take-over or a replay: the operation's row stays true to
 * what happened (a body that never ran leaves the operation claimable), and the caller gets what
 * the row says. A fresh call's attempt is written on the operation's own row, by its claim and
 * its completion, so no separate write of the attempt log can fail between them.
 */
class FollowUpWriteFailureTest {

    /** The take-over's copy of the attempt it replaces, from the record to the log. */
    private static final String MOVE_TO_LOG = "SELECT attempt_id, tool, operation_key, attempt_outcome";
    /** The batch that writes answers (replays, conflicts) to the attempt log after the calls returned. */
    private static final String ANSWER_BATCH = "payload_hash, downstream_id, detail, started_at, ended_at)";
    private static final String KEY = "notify:invoice_842";
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842");

    private static IdempotentRuntime runtime(TestDatabase db, FaultyDataSource faulty) {
        return db.track(IdempotentRuntime.builder().store("default", faulty).build());
    }

    @OnBothDatabases
    void aTakeOverThatCannotMoveThePreviousAttemptToTheLogRunsNothingAndChangesNothing(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = runtime(db, faulty);
        ToolPolicy notify = Policies.marked("notify", Retry.SAFE).build();
        FakeProvider provider = new FakeProvider();
        // Failed before its effect boundary: safe, so the next call takes the operation over.
        assertThatThrownBy(() -> runtime.call(notify, KEY, PAYLOAD, String.class, () -> {
            throw new IllegalStateException("provider refused the connection");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(db.status(KEY)).isEqualTo("failed_safe");
        // The take-over moves the failed attempt from the record to the log in its transaction.
        faulty.breakUpdates(MOVE_TO_LOG, 1, Strike.BEFORE_EXECUTING);

        assertThatThrownBy(() -> runtime.call(notify, KEY, PAYLOAD, String.class, () -> provider.apply("notify")))
                .isInstanceOf(StoreUnavailableException.class);
        assertThat(faulty.injected()).isEqualTo(1);
        assertThat(provider.invocations()).isZero();
        assertThat(db.status(KEY)).isEqualTo("failed_safe");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("FAILED_SAFE");

        assertThat(runtime.call(notify, KEY, PAYLOAD, String.class, () -> provider.apply("notify")))
                .isEqualTo("done:notify");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("FAILED_SAFE", "COMPLETED");
        assertThat(provider.effects()).isEqualTo(1);
    }

    @OnBothDatabases
    void aReplayReachesTheCallerThoughItsAttemptLogRowCouldNotBeWritten(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = runtime(db, faulty);
        ToolPolicy notify = Policies.manualReview("notify", Retry.NEVER).build();
        FakeProvider provider = new FakeProvider();
        String result = runtime.call(notify, KEY, PAYLOAD, String.class, () -> provider.apply("notify"));
        // The next write of the batch the store writes answers in fails.
        faulty.breakUpdates(ANSWER_BATCH, 1, Strike.BEFORE_EXECUTING);

        assertThat(runtime.call(notify, KEY, PAYLOAD, String.class, () -> provider.apply("again")))
                .isEqualTo(result);
        assertThat(provider.effects()).isEqualTo(1);
        // The answer's batch failed once (on the store's thread or on this one); it stays queued
        // and is written by the next try.
        TestDatabase.await(() -> {
            try {
                db.flushAttemptLogs();
                return faulty.injected() == 1;
            } catch (StoreUnavailableException injectedHere) {
                return false;
            }
        }, java.time.Duration.ofSeconds(20), "the answer to be written after its failed batch");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("COMPLETED", "REPLAYED");
    }

    @OnBothDatabases
    void aClaimWhoseReplyWasLostIsNotReportedAsNothingClaimed(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = runtime(db, faulty);
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.SAFE).build();
        FakeProvider provider = new FakeProvider();
        // One statement on either database (PostgreSQL's read-or-insert, H2's INSERT), committed
        // before its reply is lost.
        faulty.breakUpdates("INSERT INTO tool_operations (", 1, Strike.AFTER_COMMITTING);

        assertThatThrownBy(() -> runtime.call(refund, KEY, PAYLOAD, String.class, () -> provider.apply("refund")))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageNotContaining("nothing was claimed")
                .hasMessageContaining("may have been recorded")
                .hasMessageContaining("did not run");
        assertThat(faulty.injected()).isEqualTo(1);
        assertThat(provider.invocations()).isZero();
        assertThat(db.status(KEY)).isEqualTo("in_progress");
    }
}
