package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.Database;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.FaultyDataSource;
import io.idempotent.runtime.testing.FaultyDataSource.Strike;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.Map;

/**
 * A bookkeeping write (the attempt log) that fails around a claim, a stored completion or a
 * replay: the operation's row stays true to what happened (a body that never ran leaves the
 * operation claimable), and the caller gets what the row says, not a store failure.
 */
class FollowUpWriteFailureTest {

    private static final String LOG_INSERT = "INSERT INTO tool_operation_attempts";
    /** The batch that writes answers (replays, conflicts) to the attempt log after the calls returned. */
    private static final String ANSWER_BATCH = "payload_hash, downstream_id, detail, started_at, ended_at)";
    private static final String LOG_END = "UPDATE tool_operation_attempts";
    private static final String KEY = "notify:invoice_842";
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842");

    private static IdempotentRuntime runtime(TestDatabase db, FaultyDataSource faulty) {
        return db.track(IdempotentRuntime.builder().store("default", faulty).build());
    }

    @OnBothDatabases
    void anAttemptLogWriteThatFailsWithTheClaimLeavesTheOperationClaimable(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = runtime(db, faulty);
        ToolPolicy notify = Policies.manualReview("notify", Retry.NEVER).build();
        FakeProvider provider = new FakeProvider();
        // The attempt's row is written with the claim (one statement on PostgreSQL, one
        // transaction on H2): when it fails, the claim fails with it and nothing is claimed.
        faulty.breakUpdates(LOG_INSERT, 1, Strike.BEFORE_EXECUTING);

        // The attempt's RUNNING row is written with the claim, atomically: no claim is left behind
        // whose body never ran (it would look as if its effect had begun).
        assertThatThrownBy(() -> runtime.call(notify, KEY, PAYLOAD, String.class, () -> provider.apply("notify")))
                .isInstanceOf(StoreUnavailableException.class).hasMessageContaining("did not run");
        assertThat(faulty.injected()).isEqualTo(1);
        assertThat(provider.invocations()).isZero();
        assertThat(db.status(KEY)).isNull();

        assertThat(runtime.call(notify, KEY, PAYLOAD, String.class, () -> provider.apply("notify")))
                .isEqualTo("done:notify");
        assertThat(db.status(KEY)).isEqualTo("completed");
        assertThat(db.attemptOutcomes(KEY)).containsExactly("COMPLETED");
        assertThat(provider.effects()).isEqualTo(1);
    }

    @OnBothDatabases
    void aStoredCompletionReachesTheCallerThoughTheAttemptLogCouldNotBeEnded(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = runtime(db, faulty);
        ToolPolicy notify = Policies.manualReview("notify", Retry.NEVER).build();
        FakeProvider provider = new FakeProvider();
        faulty.breakUpdates(LOG_END, 1, Strike.BEFORE_EXECUTING);

        String result = runtime.call(notify, KEY, PAYLOAD, String.class, () -> provider.apply("notify"));

        assertThat(faulty.injected()).isEqualTo(1);
        assertThat(result).isEqualTo("done:notify");
        assertThat(db.status(KEY)).isEqualTo("completed");
        assertThat(runtime.call(notify, KEY, PAYLOAD, String.class, () -> provider.apply("again")))
                .isEqualTo(result);
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
        // PostgreSQL claims in one statement; H2 in a transaction, whose commit's reply is lost.
        if (db.kind() == Database.H2) {
            faulty.breakCommits(1);
        } else {
            faulty.breakUpdates("FROM idempotent_claim(", 1, Strike.AFTER_COMMITTING);
        }

        assertThatThrownBy(() -> runtime.call(refund, KEY, PAYLOAD, String.class, () -> provider.apply("refund")))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageNotContaining("nothing was claimed")
                .hasMessageContaining("may have been recorded")
                .hasMessageContaining("did not run");
        assertThat(faulty.injected()).isEqualTo(1);
        assertThat(provider.invocations()).isZero();
        if (db.kind() == Database.POSTGRESQL) {
            // The claim is one statement there, committed before its reply was lost. (On H2 it is
            // a transaction that the lost connection rolls back, so nothing is left.)
            assertThat(db.status(KEY)).isEqualTo("in_progress");
        }
    }
}
