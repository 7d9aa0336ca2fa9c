package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.CapturedLog;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * An operation record that disappears while its body runs (the claim committed only on a
 * primary that was then lost to a failover with asynchronous replication, or the store was
 * restored from a backup) is not a lost lease: no other attempt holds the operation, so the
 * attempt that ran the body re-creates the record with what it knows, and a repeat is answered
 * by it instead of running the body a second time. Each test deletes the row while the body
 * waits on a latch.
 */
class LostRecordTest {

    private static final String MISSING = "the record was missing: was the store failed over with asynchronous"
            + " replication or restored from a backup?";

    @OnBothDatabases
    void aCompletionThatFindsNoRowRecreatesTheRecordCompletedAndARepeatReplaysIt(TestDatabase db) throws Exception {
        completionRecreatesTheRecord(db, Policies.manualReview("refund", Retry.SAFE).build());
    }

    @OnBothDatabases
    void aRetryNeverToolIsNotRunAgainEither(TestDatabase db) throws Exception {
        completionRecreatesTheRecord(db, Policies.manualReview("refund", Retry.NEVER).build());
    }

    private static void completionRecreatesTheRecord(TestDatabase db, ToolPolicy refund) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        String key = "refund:invoice_842";
        Body body = new Body();
        try (CapturedLog log = new CapturedLog()) {
            Future<String> first = body.call(() -> runtime.call(refund, key, Map.of("id", key), String.class,
                    () -> body.waitForRecordLoss(() -> provider.apply("refund 1250"))));
            body.loseRecord(db, "refund", key);

            assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("done:refund 1250");
            assertThat(db.status(key)).isEqualTo("completed");
            assertThat(runtime.call(refund, key, Map.of("id", key), String.class, () -> provider.apply("again")))
                    .isEqualTo("done:refund 1250");
            assertThat(provider.effects()).as("effects").isEqualTo(1);
            assertThat(db.attemptOutcomes(key)).containsExactly("COMPLETED", "REPLAYED");
            assertThat(log.lines()).filteredOn(line -> line.contains(MISSING)).singleElement()
                    .satisfies(line -> assertThat(line).startsWith("WARNING").contains("tool refund")
                            .contains("key " + key).doesNotContain("refund 1250"));
        } finally {
            body.close();
        }
    }

    @OnBothDatabases
    void aFailureAfterTheBoundaryThatFindsNoRowRecreatesTheRecordForReconciliation(TestDatabase db)
            throws Exception {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy email = Policies.manualReview("email", Retry.SAFE).build();
        FakeProvider provider = new FakeProvider();
        String key = "email:welcome_17";
        IllegalStateException timeout = new IllegalStateException("the mail server timed out after sending");
        Body body = new Body();
        try (CapturedLog log = new CapturedLog()) {
            Future<String> first = body.call(() -> runtime.call(email, key, Map.of("id", key), String.class,
                    () -> body.waitForRecordLoss(() -> {
                        provider.apply("welcome");
                        throw timeout;
                    })));
            body.loseRecord(db, "email", key);

            assertThatThrownBy(() -> first.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isSameAs(timeout);
            assertThat(timeout.getSuppressed()).isEmpty();
            assertThat(db.status(key)).isEqualTo("needs_reconciliation");
            assertThatThrownBy(() -> runtime.call(email, key, Map.of("id", key), String.class,
                    () -> provider.apply("again"))).isInstanceOf(NeedsReconciliationException.class);
            assertThat(provider.invocations()).as("body runs").isEqualTo(1);
            assertThat(db.attemptOutcomes(key)).first().isEqualTo("NEEDS_RECONCILIATION");
            // The record written again is in the reconciliation queue that operators work from.
            assertThat(runtime.operations().awaitingReconciliation("default", 10))
                    .extracting(OperationRecord::key).containsExactly(key);
            assertThat(runtime.operations().countAwaitingReconciliation("default")).containsEntry("email", 1L);
            assertThat(log.lines()).filteredOn(line -> line.contains(MISSING)).hasSize(1);
        } finally {
            body.close();
        }
    }

    @OnBothDatabases
    void anEffectBoundaryThatFindsNoRowRecreatesARecordTheAttemptStillHolds(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy deploy = Policies.marked("deploy", Retry.SAFE).build();
        FakeProvider provider = new FakeProvider();
        String key = "deploy:build_9";
        Body body = new Body();
        try (CapturedLog log = new CapturedLog()) {
            Future<String> first = body.call(() -> runtime.call(deploy, key, Map.of("id", key), String.class,
                    () -> body.waitForRecordLoss(() -> {
                        OperationContext.current().effectStarting("d-9");
                        return provider.apply("build 9");
                    })));
            body.loseRecord(db, "deploy", key);

            assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("done:build 9");
            assertThat(db.status(key)).isEqualTo("completed");
            assertThat(db.queryString("SELECT downstream_id FROM tool_operations WHERE operation_key = ?", key))
                    .isEqualTo("d-9");
            assertThat(runtime.call(deploy, key, Map.of("id", key), String.class, () -> provider.apply("again")))
                    .isEqualTo("done:build 9");
            assertThat(provider.effects()).isEqualTo(1);
            assertThat(db.attemptOutcomes(key)).containsExactly("COMPLETED", "REPLAYED");
            assertThat(log.lines()).filteredOn(line -> line.contains(MISSING)).hasSize(1);
        } finally {
            body.close();
        }
    }

    @OnBothDatabases
    void aHeartbeatThatFindsNoRowHoldsTheOperationAgainWhileTheBodyRuns(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        // A heartbeat every second: the record is back while the body still runs.
        ToolPolicy refund = Policies.manualReview("refund", Retry.SAFE).lease(java.time.Duration.ofSeconds(3))
                .build();
        FakeProvider provider = new FakeProvider();
        String key = "refund:invoice_9";
        Body body = new Body();
        CountDownLatch heldAgain = new CountDownLatch(1);
        try (CapturedLog log = new CapturedLog()) {
            Future<String> first = body.call(() -> runtime.call(refund, key, Map.of("id", key), String.class,
                    () -> body.waitForRecordLoss(() -> {
                        heldAgain.await(30, TimeUnit.SECONDS);
                        return provider.apply("refund 9");
                    })));
            body.loseRecord(db, "refund", key);
            TestDatabase.await(() -> "in_progress".equals(db.status(key)), java.time.Duration.ofSeconds(20),
                    "a heartbeat to write the record again");
            // Held by the running attempt: a repeat now is "in progress", not a second run.
            assertThatThrownBy(() -> runtime.call(refund, key, Map.of("id", key), String.class,
                    () -> provider.apply("again"))).isInstanceOf(OperationInProgressException.class);
            assertThat(runtime.operations().inProgress("default", 10)).extracting(OperationRecord::key)
                    .containsExactly(key);
            heldAgain.countDown();

            assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("done:refund 9");
            assertThat(db.status(key)).isEqualTo("completed");
            assertThat(runtime.operations().inProgress("default", 10)).isEmpty();
            assertThat(provider.invocations()).isEqualTo(1);
            assertThat(log.lines()).filteredOn(line -> line.contains(MISSING)).hasSize(1);
        } finally {
            heldAgain.countDown();
            body.close();
        }
    }

    /**
     * After the record was lost, a fresh call claims the key again and its row's lease token
     * restarts at 1, the token the first attempt still holds. The first attempt's writes are
     * fenced by its attempt id as well: its completion is refused as a lost lease, and the
     * running attempt's own completion stands.
     */
    @OnBothDatabases
    void aStaleCompletionDoesNotLandOnTheRecordOfTheAttemptThatClaimedTheKeyAfresh(TestDatabase db)
            throws Exception {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy refund = Policies.manualReview("refund", Retry.SAFE).lease(Duration.ofHours(1)).build();
        FakeProvider provider = new FakeProvider();
        String key = "refund:invoice_77";
        Body stale = new Body();
        Body fresh = new Body();
        try {
            Future<String> first = stale.call(() -> runtime.call(refund, key, Map.of("id", key), String.class,
                    () -> stale.waitForRecordLoss(() -> provider.apply("refund A"))));
            stale.deleteRecord(db, "refund", key);
            Future<String> second = fresh.call(() -> runtime.call(refund, key, Map.of("id", key), String.class,
                    () -> fresh.waitForRecordLoss(() -> provider.apply("refund B"))));
            fresh.awaitRunning();
            assertThat(db.queryString("SELECT CAST(lease_token AS VARCHAR(20)) FROM tool_operations"
                    + " WHERE operation_key = ?", key)).as("the fresh claim's token").isEqualTo("1");

            stale.release();
            assertThatThrownBy(() -> first.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(LeaseLostException.class).hasMessageContaining("its result was not stored");
            assertThat(db.status(key)).as("the fresh attempt's record").isEqualTo("in_progress");

            fresh.release();
            assertThat(second.get(30, TimeUnit.SECONDS)).isEqualTo("done:refund B");
            assertThat(db.status(key)).isEqualTo("completed");
            assertThat(runtime.call(refund, key, Map.of("id", key), String.class, () -> provider.apply("again")))
                    .isEqualTo("done:refund B");
            // Both bodies ran (the record was lost before either ended); no third.
            assertThat(provider.effects()).as("effects").isEqualTo(2);
            assertThat(db.attemptOutcomes(key)).containsExactly("COMPLETED", "REPLAYED");
        } finally {
            stale.close();
            fresh.close();
        }
    }

    @OnBothDatabases
    void aStaleFailureDoesNotLandOnTheRecordOfTheAttemptThatClaimedTheKeyAfresh(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy email = Policies.manualReview("email", Retry.SAFE).lease(Duration.ofHours(1)).build();
        FakeProvider provider = new FakeProvider();
        String key = "email:welcome_77";
        IllegalStateException timeout = new IllegalStateException("the mail server timed out after sending");
        Body stale = new Body();
        Body fresh = new Body();
        try {
            Future<String> first = stale.call(() -> runtime.call(email, key, Map.of("id", key), String.class,
                    () -> stale.waitForRecordLoss(() -> {
                        provider.apply("welcome A");
                        throw timeout;
                    })));
            stale.deleteRecord(db, "email", key);
            Future<String> second = fresh.call(() -> runtime.call(email, key, Map.of("id", key), String.class,
                    () -> fresh.waitForRecordLoss(() -> provider.apply("welcome B"))));
            fresh.awaitRunning();

            stale.release();
            assertThatThrownBy(() -> first.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isSameAs(timeout);
            assertThat(timeout.getSuppressed()).singleElement().isInstanceOf(LeaseLostException.class);
            assertThat(db.status(key)).as("the fresh attempt's record").isEqualTo("in_progress");

            fresh.release();
            assertThat(second.get(30, TimeUnit.SECONDS)).isEqualTo("done:welcome B");
            assertThat(db.status(key)).isEqualTo("completed");
            assertThat(runtime.operations().awaitingReconciliation("default", 10)).isEmpty();
            assertThat(provider.effects()).as("effects").isEqualTo(2);
            assertThat(db.attemptOutcomes(key)).containsExactly("COMPLETED");
        } finally {
            stale.close();
            fresh.close();
        }
    }

    @OnBothDatabases
    void aStaleEffectBoundaryIsRefusedOnTheRecordOfTheAttemptThatClaimedTheKeyAfresh(TestDatabase db)
            throws Exception {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy deploy = Policies.marked("deploy", Retry.SAFE).lease(Duration.ofHours(1)).build();
        FakeProvider provider = new FakeProvider();
        String key = "deploy:build_77";
        Body stale = new Body();
        Body fresh = new Body();
        try {
            Future<String> first = stale.call(() -> runtime.call(deploy, key, Map.of("id", key), String.class,
                    () -> stale.waitForRecordLoss(() -> {
                        OperationContext.current().effectStarting("d-A");
                        return provider.apply("build A");
                    })));
            stale.deleteRecord(db, "deploy", key);
            Future<String> second = fresh.call(() -> runtime.call(deploy, key, Map.of("id", key), String.class,
                    () -> fresh.waitForRecordLoss(() -> {
                        OperationContext.current().effectStarting("d-B");
                        return provider.apply("build B");
                    })));
            fresh.awaitRunning();

            stale.release();
            assertThatThrownBy(() -> first.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(LeaseLostException.class).hasMessageContaining("must not start the effect");
            assertThat(db.queryString("SELECT downstream_id FROM tool_operations WHERE operation_key = ?", key))
                    .as("the fresh attempt's boundary").isNull();

            fresh.release();
            assertThat(second.get(30, TimeUnit.SECONDS)).isEqualTo("done:build B");
            assertThat(db.status(key)).isEqualTo("completed");
            assertThat(db.queryString("SELECT downstream_id FROM tool_operations WHERE operation_key = ?", key))
                    .isEqualTo("d-B");
            // The stale attempt never sent its request.
            assertThat(provider.effects()).as("effects").isEqualTo(1);
        } finally {
            stale.close();
            fresh.close();
        }
    }

    /** A body that waits, after it started, until the test has deleted its operation's row. */
    private static final class Body implements AutoCloseable {
        private final ExecutorService caller = Executors.newSingleThreadExecutor();
        private final CountDownLatch running = new CountDownLatch(1);
        private final CountDownLatch recordLost = new CountDownLatch(1);

        <T> Future<T> call(Callable<T> call) {
            return caller.submit(call);
        }

        <T> T waitForRecordLoss(Callable<T> then) throws Exception {
            running.countDown();
            if (!recordLost.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the test never deleted the record");
            }
            return then.call();
        }

        void loseRecord(TestDatabase db, String tool, String key) throws InterruptedException {
            deleteRecord(db, tool, key);
            release();
        }

        void awaitRunning() throws InterruptedException {
            assertThat(running.await(30, TimeUnit.SECONDS)).as("the body started").isTrue();
        }

        /** Deletes the row as a failover loses it; the body keeps waiting until {@link #release}. */
        void deleteRecord(TestDatabase db, String tool, String key) throws InterruptedException {
            awaitRunning();
            assertThat(db.update("DELETE FROM tool_operations WHERE tool = ? AND operation_key = ?", tool, key))
                    .isEqualTo(1);
            // A failover or a restore loses the operation's row in the open operations too.
            if (db.tableExists("tool_operations_open")) {
                db.update("DELETE FROM tool_operations_open WHERE tool = ? AND operation_key = ?", tool, key);
            }
        }

        void release() {
            recordLost.countDown();
        }

        @Override
        public void close() {
            recordLost.countDown();
            caller.shutdownNow();
        }
    }
}
