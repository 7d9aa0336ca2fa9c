package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.testing.SharedStoreJvm;
import io.idempotent.runtime.testing.SharedStoreJvm.Answer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several JVMs share the embedded H2 store ({@code AUTO_SERVER=TRUE}) and the one that serves its
 * file stalls (SIGSTOP) or dies (SIGKILL) while every JVM works the same operation ids. The others
 * keep answering within the documented bound with the truth (retry later, never "corrupted" or
 * "restore a backup"), and every id has one effect at most, exactly one once every JVM settled it.
 * The timeouts and the lease are shortened through the store's settings, so the stall outlasts
 * both in a few seconds.
 */
class SharedStoreStallTest {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration LEASE = Duration.ofSeconds(3);
    /** What docs/store-connections.md promises a call on a stalled shared store: connect timeout + 1 s, or socket timeout. */
    private static final Duration DOCUMENTED_BOUND = CONNECT_TIMEOUT.plusSeconds(1);
    /** A generous margin over the bound for a loaded build machine (2 cores, several builds). */
    private static final Duration SLACK = Duration.ofSeconds(3);
    private static final Map<String, String> SETTINGS = Map.of("store.connect.timeout", CONNECT_TIMEOUT.toString(),
            "store.socket.timeout", SOCKET_TIMEOUT.toString(), "store.pool.size", "4");
    private static final int IDS = 30;

    @Test
    void othersKeepAnsweringWithinTheBoundWhileTheJvmServingTheFileIsFrozenAndEveryIdEndsWithOneEffect(
            @TempDir Path dir) throws Exception {
        Path database = dir.resolve("store").resolve("operations");
        Path effects = dir.resolve("effects.txt");
        List<SharedStoreJvm> jvms = new ArrayList<>();
        try {
            SharedStoreJvm owner = start(jvms, "owner", database, effects, 100, true);
            // b's bodies outlast a heartbeat period (a third of the lease): its beats meet the frozen owner.
            SharedStoreJvm b = start(jvms, "b", database, effects, 1500, true);
            SharedStoreJvm c = start(jvms, "c", database, effects, 100, true);
            for (SharedStoreJvm jvm : jvms) {
                jvm.go();
            }
            // Frozen in the middle of its own calls, holding the file, its lock and its server socket.
            owner.await(l -> l.startsWith("answer "), Duration.ofSeconds(60));
            owner.freeze();
            long frozenAt = System.nanoTime();
            // A JVM that starts while the owner is frozen opens the store for the first time.
            SharedStoreJvm late = SharedStoreJvm.start("late", database, SETTINGS, effects, IDS, 2, LEASE, 100,
                    false, null, "started ");
            jvms.add(late);
            // The stall outlasts the lease and the connect timeout several times over.
            Duration stall = LEASE.plus(CONNECT_TIMEOUT).plusSeconds(4);
            while (System.nanoTime() - frozenAt < stall.toNanos()) {
                Thread.sleep(100); // a stall of a chosen length, not a synchronisation
            }
            int answeredDuringTheStall = b.answers().size() + c.answers().size() + late.answers().size();
            owner.thaw();
            for (SharedStoreJvm jvm : jvms) {
                jvm.await(l -> l.equals("finished"), Duration.ofSeconds(120));
            }

            List<Answer> others = new ArrayList<>(b.answers());
            others.addAll(c.answers());
            others.addAll(late.answers());
            List<Answer> all = new ArrayList<>(others);
            all.addAll(owner.answers());
            System.out.println("SharedStoreStallTest (frozen owner): heartbeats that failed: " + b.lines().stream()
                    .filter(l -> l.contains("lease heartbeat failed")).toList());
            System.out.println("SharedStoreStallTest (frozen owner): " + summary(all) + "; slowest answer of the"
                    + " others " + others.stream().mapToLong(Answer::millis).max().orElse(0) + " ms");
            assertThat(answeredDuringTheStall).as("answers of the other JVMs while the owner was frozen").isPositive();
            assertThat(all).as("no answer calls the store misconfigured or its file corrupted")
                    .noneMatch(a -> a.kind().equals("StoreConfigurationException"))
                    .allMatch(a -> a.flags().equals("-"));
            assertNoJvmLoggedAConfigurationError(jvms);
            assertThat(others).as("every call of the other JVMs answered within the bound")
                    .allMatch(a -> a.millis() <= DOCUMENTED_BOUND.plus(SLACK).toMillis());
            assertThat(effectsPerId(effects)).as("effects per id").isEqualTo(oneEach());
            assertFinalAnswersAgree(all);
        } finally {
            closeAll(jvms);
        }
    }

    @Test
    void theJvmServingTheFileKilledMidCallRepeatedlyLeavesAtMostOneEffectPerKey(@TempDir Path dir)
            throws Exception {
        Path database = dir.resolve("store").resolve("operations");
        Path effects = dir.resolve("effects.txt");
        List<SharedStoreJvm> jvms = new ArrayList<>();
        List<SharedStoreJvm> killed = new ArrayList<>();
        try {
            start(jvms, "first", database, effects, 150, true);
            start(jvms, "second", database, effects, 150, true);
            for (SharedStoreJvm jvm : jvms) {
                jvm.go();
            }
            for (int round = 1; round <= 3; round++) {
                int seen = answers(jvms).size();
                awaitAnswers(jvms, seen + 3);
                SharedStoreJvm serving = serving(jvms, database);
                serving.kill();
                killed.add(serving);
                jvms.remove(serving);
                start(jvms, "replacement-" + round, database, effects, 150, false);
            }
            for (SharedStoreJvm jvm : jvms) {
                jvm.await(l -> l.equals("finished"), Duration.ofSeconds(120));
            }
            List<Answer> all = answers(jvms);
            all.addAll(answers(killed));
            System.out.println("SharedStoreStallTest (owner killed 3 times): " + summary(all));
            assertThat(all).as("no answer calls the store misconfigured or its file corrupted")
                    .noneMatch(a -> a.kind().equals("StoreConfigurationException"))
                    .allMatch(a -> a.flags().equals("-"));
            List<SharedStoreJvm> every = new ArrayList<>(jvms);
            every.addAll(killed);
            assertNoJvmLoggedAConfigurationError(every);
            Map<String, Integer> perId = effectsPerId(effects);
            assertThat(perId.values()).as("effects per id " + perId).allMatch(n -> n <= 1);
            assertFinalAnswersAgree(all);
        } finally {
            closeAll(jvms);
        }
    }

    /**
     * No JVM's output (its answers and its log: a lease heartbeat that failed names the exception)
     * calls the store misconfigured, its file corrupted, or advises a backup.
     */
    private static void assertNoJvmLoggedAConfigurationError(List<SharedStoreJvm> jvms) {
        for (SharedStoreJvm jvm : jvms) {
            assertThat(jvm.lines()).as("output of " + jvm.name())
                    .noneMatch(l -> l.contains("StoreConfigurationException"))
                    .noneMatch(l -> l.toLowerCase(java.util.Locale.ROOT).contains("corrupt"))
                    .noneMatch(l -> l.toLowerCase(java.util.Locale.ROOT).contains("backup"));
        }
    }

    /** Every result answered for one id is the same stored result. */
    private static void assertFinalAnswersAgree(List<Answer> all) {
        Map<String, Set<String>> results = all.stream().filter(Answer::isResult)
                .collect(Collectors.groupingBy(Answer::id, Collectors.mapping(Answer::kind, Collectors.toSet())));
        assertThat(results.values()).as("results per id " + results).allMatch(r -> r.size() == 1);
    }

    private static SharedStoreJvm start(List<SharedStoreJvm> jvms, String name, Path database, Path effects,
            long pause, boolean waitForGo) throws Exception {
        SharedStoreJvm jvm = SharedStoreJvm.start(name, database, SETTINGS, effects, IDS, 2, LEASE, pause, waitForGo,
                null);
        jvms.add(jvm);
        return jvm;
    }

    /** The JVM that serves the file: the one whose process holds the lock of its {@code .mv.db}. */
    private static SharedStoreJvm serving(List<SharedStoreJvm> jvms, Path database) throws Exception {
        Long pid = io.idempotent.runtime.internal.H2FileOwner.of(database).holderPid();
        return jvms.stream().filter(j -> pid != null && j.pid() == pid).findFirst()
                .orElseThrow(() -> new IllegalStateException("no JVM of the test holds " + database + " (" + pid + ")"));
    }

    private static void awaitAnswers(List<SharedStoreJvm> jvms, int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (answers(jvms).size() < count) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("no progress: " + jvms.get(0).tail());
            }
            Thread.sleep(20);
        }
    }

    private static List<Answer> answers(List<SharedStoreJvm> jvms) {
        List<Answer> all = new ArrayList<>();
        for (SharedStoreJvm jvm : jvms) {
            all.addAll(jvm.answers());
        }
        return all;
    }

    private static Map<String, Integer> effectsPerId(Path effects) throws Exception {
        Map<String, Integer> perId = new TreeMap<>();
        for (String line : Files.readAllLines(effects)) {
            String id = line.split(" ")[0];
            if (id.startsWith("op-")) {
                perId.merge(id, 1, Integer::sum);
            }
        }
        return perId;
    }

    private static Map<String, Integer> oneEach() {
        Map<String, Integer> expected = new TreeMap<>();
        for (int i = 1; i <= IDS; i++) {
            expected.put("op-" + i, 1);
        }
        return expected;
    }

    private static String summary(List<Answer> all) {
        Map<String, Long> kinds = new HashMap<>();
        for (Answer a : all) {
            kinds.merge(a.isResult() ? "result" : a.kind(), 1L, Long::sum);
        }
        return all.size() + " answers " + new TreeMap<>(kinds);
    }

    private static void closeAll(List<SharedStoreJvm> jvms) {
        for (SharedStoreJvm jvm : jvms) {
            try {
                jvm.thaw();
                jvm.kill();
            } catch (Exception e) {
                // best effort: the test's result is already decided
            }
        }
    }
}
