package io.idempotent.benchmarks.store;

import com.zaxxer.hikari.HikariDataSource;
import io.idempotent.benchmarks.BenchTools;
import io.idempotent.benchmarks.BenchTools_IdempotentTools;
import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationInProgressException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * 64 threads race on one operation key through the runtime's public API, on an embedded
 * PostgreSQL ({@code fsync} on): how often the body runs (must be once per key) and how many
 * round trips each loser costs (goal: at most 2), counted per thread by a counting data source
 * around the pool. Each race uses a new key; the losers are answered "in progress" or, when the
 * winner was already done, with a replay. Run:
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.idempotent.benchmarks.store.StoreRace
 * </pre>
 *
 * <p>Options: {@code race.threads} (default 64), {@code race.keys} (races, default 20).
 */
public final class StoreRace {

    private StoreRace() {
    }

    /** What one thread saw in one race. */
    private record Answer(String outcome, long statements, long commits) {
    }

    /** Runs the races and prints the counts; exits with status 1 if a key ran more than once. */
    public static void main(String[] args) throws Exception {
        int threads = Settings.integer("race.threads", 64);
        int keys = Settings.integer("race.keys", 20);
        System.out.printf("StoreRace: %d threads on one key, %d keys, JDK %s; %s%n", threads, keys,
                Runtime.version(), Load.now());
        BenchTools tools = new BenchTools();
        Map<String, Integer> outcomes = new TreeMap<>();
        Map<Long, Integer> loserStatements = new TreeMap<>();
        Map<Long, Integer> winnerStatements = new TreeMap<>();
        int keysRunTwice = 0;
        long maxLoser = 0;
        long loserSum = 0;
        int losers = 0;
        try (BenchPostgres server = BenchPostgres.start(true)) {
            server.createDatabase("race");
            try (HikariDataSource pool = server.pool("race", threads)) {
                StatementCountingDataSource counting = new StatementCountingDataSource(pool);
                try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", counting).build()) {
                    runtime.call(BenchTools_IdempotentTools.REFUND, new Object[] {"warm-up", 1L, "EUR"},
                            () -> tools.refundPlain("warm-up", 1L, "EUR"));
                    for (int k = 0; k < keys; k++) {
                        String id = "race-" + k;
                        AtomicInteger executions = new AtomicInteger();
                        CyclicBarrier start = new CyclicBarrier(threads);
                        Answer[] answers = new Answer[threads];
                        List<Thread> racers = new ArrayList<>();
                        for (int t = 0; t < threads; t++) {
                            int slot = t;
                            Thread racer = new Thread(() -> answers[slot] = race(runtime, counting, tools, id,
                                    executions, start));
                            racers.add(racer);
                            racer.start();
                        }
                        for (Thread racer : racers) {
                            racer.join(TimeUnit.MINUTES.toMillis(2));
                            if (racer.isAlive()) {
                                throw new IllegalStateException("a racer of " + id + " did not finish in 2 minutes");
                            }
                        }
                        if (executions.get() != 1) {
                            keysRunTwice++;
                            System.out.println("  key " + id + ": the body ran " + executions.get() + " times");
                        }
                        for (Answer answer : answers) {
                            outcomes.merge(answer.outcome(), 1, Integer::sum);
                            long trips = answer.statements() + answer.commits();
                            if (answer.outcome().equals("executed")) {
                                winnerStatements.merge(trips, 1, Integer::sum);
                            } else {
                                loserStatements.merge(trips, 1, Integer::sum);
                                maxLoser = Math.max(maxLoser, trips);
                                loserSum += trips;
                                losers++;
                            }
                        }
                    }
                }
            }
        }
        System.out.println();
        System.out.println("| " + threads + " threads on one key, " + keys + " keys | |");
        System.out.println("|---|---|");
        System.out.println("| keys whose body did not run exactly once | " + keysRunTwice + " |");
        System.out.println("| answers | " + outcomes + " |");
        System.out.println("| round trips of the winner (calls: count) | " + winnerStatements + " |");
        System.out.println("| round trips of each loser (calls: count) | " + loserStatements + " |");
        System.out.printf(java.util.Locale.ROOT, "| round trips per loser, mean / max | %.2f / %d |%n",
                losers == 0 ? 0.0 : loserSum / (double) losers, maxLoser);
        System.out.println();
        System.out.println("Goals of issue 10:");
        System.out.println("- one execution per key: " + (keysRunTwice == 0 ? "met" : "NOT met"));
        System.out.println("- each loser answered in <= 2 statements: " + (maxLoser <= 2 ? "met" : "NOT met (max "
                + maxLoser + ")"));
        if (keysRunTwice != 0) {
            System.exit(1);
        }
    }

    private static Answer race(IdempotentRuntime runtime, StatementCountingDataSource counting, BenchTools tools,
            String id, AtomicInteger executions, CyclicBarrier start) {
        Thread me = Thread.currentThread();
        boolean[] ran = new boolean[1];
        String outcome;
        try {
            start.await();
        } catch (Exception e) {
            throw new IllegalStateException("the race's start barrier broke", e);
        }
        long statements = counting.statements(me);
        long commits = counting.commits(me);
        try {
            runtime.call(BenchTools_IdempotentTools.REFUND, new Object[] {id, 100L, "EUR"}, () -> {
                ran[0] = true;
                executions.incrementAndGet();
                return tools.refundPlain(id, 100L, "EUR");
            });
            outcome = ran[0] ? "executed" : "replayed";
        } catch (OperationInProgressException e) {
            outcome = "in progress";
        } catch (IdempotencyException e) {
            outcome = e.getClass().getSimpleName();
        }
        return new Answer(outcome, counting.statements(me) - statements, counting.commits(me) - commits);
    }
}
