package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationInProgressException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Busy is not dead: a thousand asynchronous calls pending at once under a 3-second lease, whose
 * downstream answers only after about ten seconds, all keep their leases (none is ever seen
 * expired by the database's clock), a duplicate of each sent meanwhile is told "in progress" (not
 * taken over, not sent to reconciliation), and all thousand complete with their own value.
 */
class AsyncLeasesUnderLoadTest {

    private static final int CALLS = 1000;
    private static final Duration LEASE = Duration.ofSeconds(3);
    /** How long the downstream takes to answer: more than three leases. */
    private static final Duration DOWNSTREAM = Duration.ofSeconds(10);
    /** Duplicates in flight at once: a few, well inside what the originals leave of the bound. */
    private static final int DUPLICATES_AT_ONCE = 16;
    private static final Duration WAIT = Duration.ofSeconds(90);

    private static final String EXPIRED_LIVE = "SELECT count(*) FROM tool_operations WHERE status = 'in_progress'"
            + " AND lease_until <= CURRENT_TIMESTAMP";

    @OnBothDatabases
    void aThousandPendingCallsKeepTheirLeasesAndEachDuplicateIsToldInProgress(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        AsyncToolCalls async = RuntimeAccess.engine(runtime).async();
        ToolPolicy tool = Policies.downstreamKey("slow_ledger", Retry.SAFE).lease(LEASE).build();
        // The downstream's latch: every pending value is released at once, after the delay.
        CompletableFuture<Void> downstreamAnswers = new CompletableFuture<>();
        AtomicInteger started = new AtomicInteger();
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            String value = "entry-" + i;
            calls.add(async.call(tool, "k:" + i, Map.of("id", i), String.class, null, () -> {
                started.incrementAndGet();
                return downstreamAnswers.thenApply(released -> value);
            }));
        }
        TestDatabase.await(() -> started.get() == CALLS, WAIT, "every body to start");
        long since = System.nanoTime();
        long expiredSeen = 0;
        int inProgress = 0;
        boolean duplicatesSent = false;
        // Watch the leases for the downstream's whole delay; the duplicates come after one lease.
        while (System.nanoTime() - since < DOWNSTREAM.toNanos()) {
            expiredSeen = Math.max(expiredSeen, db.queryLong(EXPIRED_LIVE));
            if (!duplicatesSent && System.nanoTime() - since > LEASE.plusSeconds(1).toNanos()) {
                // A few at a time, as retrying orchestrators send them: the originals hold most of
                // the bound of pending calls, whose refusal would not be an answer about the key.
                for (int from = 0; from < CALLS; from += DUPLICATES_AT_ONCE) {
                    List<CompletableFuture<String>> duplicates = new ArrayList<>();
                    for (int i = from; i < Math.min(CALLS, from + DUPLICATES_AT_ONCE); i++) {
                        duplicates.add(async.call(tool, "k:" + i, Map.of("id", i), String.class, null,
                                () -> CompletableFuture.completedFuture("duplicate ran")));
                    }
                    for (CompletableFuture<String> duplicate : duplicates) {
                        Throwable failure = duplicate.handle((v, e) -> e).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                        if (failure instanceof OperationInProgressException) {
                            inProgress++;
                        }
                    }
                }
                duplicatesSent = true;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
        downstreamAnswers.complete(null);

        int answered = 0;
        for (int i = 0; i < CALLS; i++) {
            if (("entry-" + i).equals(calls.get(i).handle((v, e) -> v).get(WAIT.toSeconds(), TimeUnit.SECONDS))) {
                answered++;
            }
        }
        assertThat(expiredSeen).as("live leases seen expired").isZero();
        assertThat(inProgress).as("duplicates told the call is in progress").isEqualTo(CALLS);
        assertThat(answered).as("calls answered with their downstream's value").isEqualTo(CALLS);
        assertThat(db.queryLong("SELECT count(*) FROM tool_operations WHERE status = 'needs_reconciliation'"))
                .as("operations sent to reconciliation").isZero();
        assertThat(db.queryLong("SELECT count(*) FROM tool_operations WHERE status = 'completed'"))
                .as("completed operations").isEqualTo(CALLS);
    }
}
