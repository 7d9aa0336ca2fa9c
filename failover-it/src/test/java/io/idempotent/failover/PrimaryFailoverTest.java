package io.idempotent.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.failover.ReplicatedPostgres.Replication;
import io.idempotent.failover.ToolLoad.Failure;
import io.idempotent.failover.ToolLoad.Op;
import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.LeaseLostException;
import io.idempotent.runtime.OperationInProgressException;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.internal.RuntimeAccess;
import io.idempotent.runtime.internal.RuntimeConfiguration;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The store across a PostgreSQL failover (issue 30): a real primary and streaming standby, the
 * runtime on the multi-host URL with {@code targetServerType=primary}, worker threads calling
 * tools while the primary is killed (or frozen) and the standby promoted. The same runtime must
 * answer again after the promotion, without a restart.
 */
class PrimaryFailoverTest {

    private static final int WORKERS = 6;
    /** Generous bounds for polling; never a measurement (the figures are printed, not asserted). */
    private static final Duration SWITCH = Duration.ofSeconds(90);

    @RegisterExtension
    final PostgresClusters clusters = new PostgresClusters();

    @Test
    void synchronousReplicationLosesNoCompletionAndRepeatsNoEffectWhenThePrimaryIsKilled() throws Exception {
        ReplicatedPostgres cluster = clusters.start("sync", Replication.SYNCHRONOUS);
        try (IdempotentRuntime runtime = runtime(cluster.multiHostUrl()); ToolLoad load = new ToolLoad(runtime)) {
            load.start(WORKERS);
            awaitCompletions(load, 1500);
            SpanningCall span = SpanningCall.enter(load, "span:1");
            assertThatThrownBy(() -> load.call(span.op())).as("a duplicate while the body runs")
                    .isInstanceOf(OperationInProgressException.class);

            int acknowledgedAtKill = load.completions();
            int failedBeforeKill = load.failureCount();
            long killed = System.nanoTime();
            cluster.killPrimary();
            Deadline.await(SWITCH, "every worker's call fails while there is no primary",
                    () -> load.failureCount() >= failedBeforeKill + WORKERS, () -> load.failureCount() + " failures");
            int failedBeforePromotion = load.failureCount();
            cluster.promoteStandby();
            long promoted = System.nanoTime();
            int atPromotion = load.completions();
            Deadline.await(SWITCH, "the same runtime answers new keys after the promotion",
                    () -> load.completions() > atPromotion);
            long recovered = System.nanoTime();
            awaitCompletions(load, atPromotion + 200);

            // The claim and its live lease are on the new primary: still "in progress", then the
            // body's result is stored there.
            assertThatThrownBy(() -> load.call(span.op())).as("a duplicate after the promotion")
                    .isInstanceOf(OperationInProgressException.class);
            String spanResult = span.finish();
            load.stop();

            Map<String, String> statuses = statuses(cluster);
            Map<String, String> acknowledged = load.acknowledged();
            List<String> lost = acknowledged.keySet().stream().filter(id -> !"completed".equals(statuses.get(id)))
                    .sorted().toList();
            List<String> ranWithoutRecord = load.ran().stream().filter(id -> !statuses.containsKey(id)).sorted()
                    .toList();
            Replayed replayed = replayEvery(load, acknowledged);

            List<Failure> failures = load.failures();
            figures("synchronous, primary killed", acknowledgedAtKill, load, lost, replayed, Map.of(
                    "failed calls before the kill", failedBeforeKill,
                    "failed calls while there was no primary", failedBeforePromotion - failedBeforeKill,
                    "failed calls after the body ran (completion not written)",
                            (int) failures.stream().filter(Failure::bodyRan).count(),
                    "first new answer, ms after the kill", (int) TimeUnit.NANOSECONDS.toMillis(recovered - killed),
                    "first new answer, ms after the promotion",
                            (int) TimeUnit.NANOSECONDS.toMillis(recovered - promoted)));

            assertThat(load.unexpected()).as("exceptions other than the runtime's").isEmpty();
            assertThat(failures).as("calls during the switch").isNotEmpty();
            assertThat(failures).as("every call during the switch fails closed with a retryable exception")
                    .allSatisfy(f -> assertThat(f.thrown()).isInstanceOf(IdempotencyException.class)
                            .matches(t -> ((IdempotencyException) t).retryable(), "retryable"));
            assertThat(lost).as("acknowledged completions missing on the new primary").isEmpty();
            assertThat(ranWithoutRecord).as("bodies that ran without a record on the new primary").isEmpty();
            assertThat(load.emailsSentTwice()).as("emails sent twice").isEmpty();
            assertThat(load.provider().repeatedKeys()).as("refund keys sent to the provider twice").isZero();
            assertThat(load.replayProblems()).as("replays during the load").isEmpty();
            assertThat(replayed.ranAgain()).as("acknowledged keys whose body ran again after the failover").isEmpty();
            assertThat(replayed.otherResult()).as("acknowledged keys replayed with another result").isEmpty();
            assertThat(load.call(span.op())).as("the spanning call's result, replayed").isEqualTo(spanResult);
        }
    }

    /**
     * Bodies that finish while there is no primary (issue 47, item 3): with a lease longer than
     * the outage, each keeps its result and tries its fenced completion until the new primary
     * takes it, so no finished call ends in needs_reconciliation; a duplicate during the outage
     * fails closed (retryable, the body not run again), and after it gets the stored result.
     */
    @Test
    void bodiesThatFinishDuringTheFailoverStoreTheirResultsOnTheNewPrimary() throws Exception {
        ReplicatedPostgres cluster = clusters.start("finish", Replication.SYNCHRONOUS);
        int spanning = 4;
        // A connect timeout of one second: each try of a write fails within it while there is no
        // primary, so an outage of several seconds outlasts any fixed number of tries.
        IdempotentRuntime shortConnects = RuntimeAccess.store(IdempotentRuntime.builder(), new RuntimeConfiguration(
                Map.of("idempotent.store.url", cluster.multiHostUrl(), "idempotent.store.user", ReplicatedPostgres.USER,
                        "idempotent.store.password", ReplicatedPostgres.PASSWORD, "idempotent.store.connect.timeout",
                        "PT1S"), Map.of()).store("default")).build();
        try (IdempotentRuntime runtime = shortConnects; ToolLoad load = new ToolLoad(runtime)) {
            List<SpanningCall> calls = new ArrayList<>();
            for (int i = 0; i < spanning; i++) {
                calls.add(SpanningCall.enter(load, "finish:" + i));
            }
            assertThat(ToolLoad.REFUND.lease()).as("the lease outlasts the outage of this test")
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(30));

            cluster.killPrimary();
            long killed = System.nanoTime();
            calls.forEach(SpanningCall::release);
            Deadline.await(SWITCH, "every body finished", () -> load.provider().applied() == spanning,
                    () -> load.provider().applied() + " refunds applied");
            assertThatThrownBy(() -> load.call(calls.get(0).op())).as("a duplicate while there is no primary")
                    .isInstanceOf(StoreUnavailableException.class)
                    .matches(e -> ((IdempotencyException) e).retryable(), "retryable");
            // The outage lasts several seconds more, as a real failover's does (pg_auto_failover's took
            // 51 s): longer than three tries of a completion.
            try {
                CompletableFuture.allOf(calls.stream().map(SpanningCall::answer)
                        .toArray(CompletableFuture[]::new)).get(8, TimeUnit.SECONDS);
            } catch (TimeoutException | ExecutionException stillTryingOrGaveUp) {
                // either way, the standby is promoted now
            }
            cluster.promoteStandby();
            long promoted = System.nanoTime();

            Map<String, String> results = new TreeMap<>();
            List<String> failed = new ArrayList<>();
            for (SpanningCall call : calls) {
                try {
                    results.put(call.op().key(), call.answer().get(2, TimeUnit.MINUTES));
                } catch (ExecutionException e) {
                    failed.add(call.op().key() + ": " + e.getCause());
                }
            }
            long answered = System.nanoTime();
            Map<String, String> statuses = statuses(cluster);
            System.out.printf("failover figures [bodies finished during the outage]: %d finished, %d results"
                    + " stored, %d failed; promoted %d ms after the kill, last caller answered %d ms after the"
                    + " promotion; statuses %s%n", spanning, results.size(), failed.size(),
                    TimeUnit.NANOSECONDS.toMillis(promoted - killed), TimeUnit.NANOSECONDS.toMillis(answered - promoted),
                    statuses.values().stream().collect(Collectors.groupingBy(v -> v, TreeMap::new,
                            Collectors.counting())));

            assertThat(failed).as("finished calls whose result was not stored").isEmpty();
            assertThat(calls).allSatisfy(call -> assertThat(statuses.get("refund/" + call.op().key()))
                    .as(call.op().key()).isEqualTo("completed"));
            assertThat(statuses.values()).as("operations left for reconciliation").doesNotContain("needs_reconciliation");
            for (SpanningCall call : calls) {
                assertThat(load.call(call.op())).as("a duplicate after the failover: the stored result")
                        .isEqualTo(results.get(call.op().key()));
                assertThat(load.bodyRuns(call.op())).as("bodies run for " + call.op().key()).isEqualTo(1);
            }
            assertThat(load.provider().repeatedKeys()).isZero();
        }
    }

    @Test
    void asynchronousReplicationLosesCompletionsAndOnlyADownstreamKeyStopsTheSecondEffect() throws Exception {
        ReplicatedPostgres cluster = clusters.start("async", Replication.ASYNCHRONOUS);
        try (IdempotentRuntime runtime = runtime(cluster.multiHostUrl()); ToolLoad load = new ToolLoad(runtime)) {
            load.start(WORKERS);
            awaitCompletions(load, 1000);
            // The standby falls behind, as an asynchronous one does under load, by 500 completions.
            cluster.pauseReplication();
            int atPause = load.completions();
            awaitCompletions(load, atPause + 500);

            int acknowledgedAtKill = load.completions();
            cluster.killPrimary();
            int failedBeforeKill = load.failureCount();
            Deadline.await(SWITCH, "every worker's call fails while there is no primary",
                    () -> load.failureCount() >= failedBeforeKill + WORKERS, () -> load.failureCount() + " failures");
            cluster.promoteStandby();
            int atPromotion = load.completions();
            awaitCompletions(load, atPromotion + 200);
            load.stop();

            Map<String, String> statuses = statuses(cluster);
            Map<String, String> acknowledged = load.acknowledged();
            List<String> lost = acknowledged.keySet().stream().filter(id -> !"completed".equals(statuses.get(id)))
                    .sorted().toList();
            Replayed replayed = replayEvery(load, acknowledged);
            List<String> refundsRunAgain = replayed.ranAgain().stream().filter(id -> id.startsWith("refund/")).toList();
            List<String> emailsRunAgain = replayed.ranAgain().stream().filter(id -> id.startsWith("email/")).toList();

            figures("asynchronous, standby 500 completions behind, primary killed", acknowledgedAtKill, load, lost,
                    replayed, Map.of(
                            "acknowledged while the standby was behind", acknowledgedAtKill - atPause,
                            "refund keys run again, replay pass", refundsRunAgain.size(),
                            "refund keys run again in all (the provider deduplicated them)",
                                    (int) load.provider().repeatedKeys(),
                            "email keys run again, replay pass", emailsRunAgain.size(),
                            "emails sent twice (second effects)", load.emailsSentTwice().size(),
                            "refunds applied twice", load.provider().applied() - distinctRefundsRun(load)));

            assertThat(load.unexpected()).as("exceptions other than the runtime's").isEmpty();
            assertThat(lost).as("the standby was behind: completions acknowledged on the old primary are missing")
                    .isNotEmpty();
            // A record lost while its body ran is written again, never answered as a lost lease that a
            // retry would turn into a second run (issue 30, item 1).
            assertThat(load.failures()).as("calls answered with a lost lease")
                    .noneMatch(f -> f.thrown() instanceof LeaseLostException);
            assertThat(refundsRunAgain).as("lost refunds whose body ran again").isNotEmpty();
            assertThat(load.provider().repeatedKeys()).as("repeats the provider deduplicated")
                    .isGreaterThanOrEqualTo(refundsRunAgain.size());
            assertThat(load.provider().applied()).as("one refund per key: the downstream key held")
                    .isEqualTo(distinctRefundsRun(load));
            assertThat(replayed.otherResult().stream().filter(id -> id.startsWith("refund/")).toList())
                    .as("refunds answered with another refund than the one acknowledged first").isEmpty();
            assertThat(load.emailsSentTwice()).as("a tool without a downstream key: lost keys sent again")
                    .containsAll(emailsRunAgain);
        }
    }

    @Test
    void aFrozenPrimaryFailsCallsClosedAndTheRuntimeRecoversAfterThePromotion() throws Exception {
        ReplicatedPostgres cluster = clusters.start("frozen", Replication.SYNCHRONOUS);
        try (IdempotentRuntime runtime = runtime(cluster.multiHostUrl()); ToolLoad load = new ToolLoad(runtime)) {
            try {
                frozenPrimaryFailsClosedAndRecovers(cluster, load);
            } finally {
                // Before the runtime closes: its queued answers must not wait on the frozen server.
                cluster.killPrimary();
            }
        }
    }

    private static void frozenPrimaryFailsClosedAndRecovers(ReplicatedPostgres cluster, ToolLoad load)
            throws InterruptedException {
        Map<String, String> before = new HashMap<>();
        for (int i = 0; i < 20; i++) {
            Op op = new Op(ToolLoad.REFUND, "before:" + i);
            before.put(op.key(), load.call(op));
        }

        cluster.freezePrimary();
        ExecutorService callers = Executors.newFixedThreadPool(WORKERS);
        long slowest = 0;
        try {
            List<Future<Long>> calls = new ArrayList<>();
            for (int i = 0; i < WORKERS; i++) {
                Op op = new Op(ToolLoad.EMAIL, "frozen:" + i);
                calls.add(callers.submit(() -> failsClosed(load, op)));
            }
            long guard = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            for (Future<Long> call : calls) {
                // A hang guard, not a measurement: without a socket timeout the call never returns.
                try {
                    slowest = Math.max(slowest, call.get(Math.max(0, guard - System.nanoTime()),
                            TimeUnit.NANOSECONDS));
                } catch (TimeoutException e) {
                    throw new AssertionError("a call to the frozen primary did not end: its statement is"
                            + " unbounded", e);
                } catch (ExecutionException e) {
                    throw new AssertionError(e.getCause());
                }
            }
        } finally {
            callers.shutdownNow();
        }

        cluster.promoteStandby();
        long promoted = System.nanoTime();
        int[] after = {0};
        Deadline.await(SWITCH, "the same runtime answers new keys after the promotion", () -> {
            try {
                load.call(new Op(ToolLoad.REFUND, "after:" + after[0]++));
                return true;
            } catch (IdempotencyException e) {
                return false;
            }
        });
        long recovered = System.nanoTime();
        System.out.printf("failover figures [synchronous, primary frozen (SIGSTOP)]: %d calls failed closed, the"
                + " slowest after %d ms; first new answer %d ms after the promotion%n", WORKERS,
                TimeUnit.NANOSECONDS.toMillis(slowest), TimeUnit.NANOSECONDS.toMillis(recovered - promoted));
        before.forEach((key, result) -> assertThat(load.call(new Op(ToolLoad.REFUND, key)))
                .as("replay of " + key + " on the new primary").isEqualTo(result));
        assertThat(load.provider().repeatedKeys()).isZero();
    }

    @Test
    void aStandbyAsTheOnlyUrlIsRefusedAtStart() {
        ReplicatedPostgres cluster = clusters.start("standby-only", Replication.ASYNCHRONOUS);
        try (IdempotentRuntime runtime = runtime(cluster.standbyUrl()); ToolLoad load = new ToolLoad(runtime)) {
            Op op = new Op(ToolLoad.REFUND, "never");
            assertThatThrownBy(() -> load.call(op)).isInstanceOf(StoreConfigurationException.class)
                    .hasMessageContaining("standby").hasMessageContaining("targetServerType=primary")
                    .matches(e -> !((IdempotencyException) e).retryable(), "not retryable");
            assertThat(load.bodyRuns(op)).isZero();
        }
    }

    /** A call while the primary is frozen: a retryable StoreUnavailableException, no body run; returns its time. */
    private static long failsClosed(ToolLoad load, Op op) {
        long start = System.nanoTime();
        Throwable thrown = null;
        try {
            load.call(op);
        } catch (RuntimeException e) {
            thrown = e;
        }
        assertThat(thrown).as(op.key() + " while the primary is frozen").isInstanceOf(StoreUnavailableException.class);
        assertThat(((IdempotencyException) thrown).retryable()).isTrue();
        assertThat(load.bodyRuns(op)).as("bodies run for " + op.key()).isZero();
        return System.nanoTime() - start;
    }

    /**
     * The runtime of the load and of the replay pass. Its replay cache is off: the replay pass
     * stands for callers that never kept the keys (other JVMs, a restart), which must find what
     * the new primary holds; the JVM that completed a key would answer it from memory instead,
     * lost or not (docs/store.md, "Replays from memory").
     */
    private static IdempotentRuntime runtime(String url) {
        return IdempotentRuntime.builder().store("default", url, ReplicatedPostgres.USER, ReplicatedPostgres.PASSWORD)
                .replayCache(0).build();
    }

    private static void awaitCompletions(ToolLoad load, int count) {
        Deadline.await(SWITCH, count + " completions acknowledged", () -> load.completions() >= count || !load
                .unexpected().isEmpty(), () -> load.completions() + " so far, failures " + load.failures());
        assertThat(load.unexpected()).isEmpty();
    }

    /** Operation id (tool/key) to status, as the new primary holds them. */
    private static Map<String, String> statuses(ReplicatedPostgres cluster) throws SQLException {
        Map<String, String> statuses = new HashMap<>();
        try (Connection c = cluster.standbySuperuser(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT tool, operation_key, status FROM tool_operations")) {
            while (rs.next()) {
                statuses.put(rs.getString(1) + "/" + rs.getString(2), rs.getString(3));
            }
        }
        return statuses;
    }

    /** After the failover, every acknowledged key called again: each must be a replay of its result. */
    record Replayed(List<String> ranAgain, List<String> otherResult, List<String> failed) {
    }

    private static Replayed replayEvery(ToolLoad load, Map<String, String> acknowledged) {
        List<String> ranAgain = new ArrayList<>();
        List<String> otherResult = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        acknowledged.forEach((id, result) -> {
            Op op = load.op(id);
            int runs = load.bodyRuns(op);
            try {
                String answer;
                try {
                    answer = load.call(op);
                } catch (ToolLoad.NotSentYet firstAttemptFailed) {
                    // The record was gone and the body ran as a first attempt; the caller tries again.
                    answer = load.call(op);
                }
                if (load.bodyRuns(op) != runs) {
                    ranAgain.add(id);
                }
                if (!answer.equals(result)) {
                    otherResult.add(id);
                }
            } catch (IdempotencyException e) {
                failed.add(id + ": " + e.getClass().getSimpleName());
            }
        });
        ranAgain.sort(null);
        otherResult.sort(null);
        return new Replayed(ranAgain, otherResult, failed);
    }

    private static int distinctRefundsRun(ToolLoad load) {
        return (int) load.ran().stream().filter(id -> id.startsWith("refund/")).count();
    }

    private static void figures(String run, int acknowledgedAtKill, ToolLoad load, List<String> lost,
            Replayed replayed, Map<String, Integer> more) {
        Map<String, Object> figures = new TreeMap<>(more);
        figures.put("completions acknowledged before the kill", acknowledgedAtKill);
        figures.put("completions acknowledged in all", load.completions());
        figures.put("replays during the load", load.replays());
        figures.put("acknowledged completions missing on the new primary", lost.size());
        figures.put("acknowledged keys whose body ran again (replay pass)", replayed.ranAgain().size());
        figures.put("acknowledged keys replayed with another result", replayed.otherResult().size());
        figures.put("replay pass calls refused", replayed.failed().size());
        figures.put("failed calls by exception", load.failures().stream().collect(Collectors.groupingBy(
                f -> f.thrown().getClass().getSimpleName(), TreeMap::new, Collectors.counting())));
        System.out.println("failover figures [" + run + "]:");
        figures.forEach((name, value) -> System.out.println("  " + name + ": " + value));
    }

    /** A refund call whose body waits inside, while the failover happens around it. */
    private static final class SpanningCall {
        private final Op op;
        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private final CompletableFuture<String> result;

        private SpanningCall(ToolLoad load, String key) {
            this.op = new Op(ToolLoad.REFUND, key);
            this.result = CompletableFuture.supplyAsync(() -> load.callAround(op, () -> {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }

        static SpanningCall enter(ToolLoad load, String key) throws InterruptedException {
            SpanningCall call = new SpanningCall(load, key);
            if (!call.entered.await(1, TimeUnit.MINUTES)) {
                throw new AssertionError("the spanning call never entered its body");
            }
            return call;
        }

        Op op() {
            return op;
        }

        String finish() throws Exception {
            release();
            return result.get(2, TimeUnit.MINUTES);
        }

        /** Lets the body return (its result then goes to the store). */
        void release() {
            release.countDown();
        }

        /** The call's answer: its result, or what it threw. */
        CompletableFuture<String> answer() {
            return result;
        }
    }
}
