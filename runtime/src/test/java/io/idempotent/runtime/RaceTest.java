package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.CountingDataSource;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * 64 threads call one key at the same moment: the body runs once, and every loser is answered
 * in at most two statements of its own (the claim, and once more when the winner's row was
 * committed after the loser's statement began), whatever the interleaving.
 */
class RaceTest {

    private static final int THREADS = 64;
    private static final ToolPolicy TOOL = Policies.downstreamKey("refund", Retry.SAFE)
            .lease(Duration.ofMinutes(5)).build();

    private record Outcome(String answer, int statements) {
    }

    @OnBothDatabases
    void oneExecutionAndEachLoserAnsweredInAtMostTwoStatements(TestDatabase db) throws Exception {
        CountingDataSource counting = new CountingDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", counting).build());
        runtime.call(TOOL, "warm-up", Map.of(), String.class, () -> "schema is ready now");
        AtomicInteger executions = new AtomicInteger();
        CountDownLatch losersAnswered = new CountDownLatch(THREADS - 1);
        CyclicBarrier start = new CyclicBarrier(THREADS);
        Map<Thread, Boolean> winner = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Outcome>> futures = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                futures.add(pool.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    int before = counting.statementsOnThisThread();
                    String answer;
                    try {
                        answer = runtime.call(TOOL, "race", Map.of("amount", 500), String.class, () -> {
                            executions.incrementAndGet();
                            winner.put(Thread.currentThread(), true);
                            // Hold the lease until every other caller has been answered.
                            if (!losersAnswered.await(60, TimeUnit.SECONDS)) {
                                throw new IllegalStateException("the losers were not all answered");
                            }
                            return "refunded";
                        });
                    } catch (OperationInProgressException e) {
                        answer = "in progress";
                    }
                    int statements = counting.statementsOnThisThread() - before;
                    if (!winner.containsKey(Thread.currentThread())) {
                        losersAnswered.countDown();
                    }
                    return new Outcome(answer, statements);
                }));
            }
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<Outcome> f : futures) {
                outcomes.add(f.get(120, TimeUnit.SECONDS));
            }

            assertThat(executions).hasValue(1);
            assertThat(outcomes).filteredOn(o -> o.answer().equals("refunded")).hasSize(1);
            List<Outcome> losers = outcomes.stream().filter(o -> o.answer().equals("in progress")).toList();
            assertThat(losers).hasSize(THREADS - 1);
            assertThat(losers).allSatisfy(o -> assertThat(o.statements()).isBetween(1, 2));
            assertThat(db.attemptOutcomes("race")).hasSize(THREADS)
                    .containsOnlyOnce("COMPLETED").filteredOn("IN_PROGRESS"::equals).hasSize(THREADS - 1);
        } finally {
            pool.shutdownNow();
        }
    }
}
