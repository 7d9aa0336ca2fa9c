package io.idempotent.runtime.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.StoreUnavailableException;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The background writer of deferred answers, with a writer whose database is gone. */
class AnswerLogTest {

    @Test
    void aLogClosedWhileItsStoreIsDownStopsItsThread() throws Exception {
        AtomicInteger writes = new AtomicInteger();
        // close() tries the store again until its timeout, then gives up and reports.
        AnswerLog log = new AnswerLog("gone", rows -> {
            writes.incrementAndGet();
            throw new StoreUnavailableException(null, null, "the data source was closed", null);
        }, new AnswerLogLimits(10, java.time.Duration.ofMillis(300)));
        assertThat(log.add(new AttemptRow("a1", "k", "tool", AttemptOutcome.REPLAYED, 0, "h", null, null,
                Instant.now()))).isTrue();
        Thread writer = thread("idempotent-attempt-log-gone");
        log.close();

        // Before the fix the thread tried the closed store again every 200 ms, forever.
        writer.join(30_000);
        assertThat(writer.isAlive()).as("the attempt-log thread of a closed store still runs after "
                + writes.get() + " writes").isFalse();
    }

    @Test
    void answersAddedFromManyThreadsWhileTheLogClosesAreEachWrittenOnceOrHandedBack() throws Exception {
        java.util.Set<String> written = java.util.concurrent.ConcurrentHashMap.newKeySet();
        AtomicInteger duplicates = new AtomicInteger();
        AnswerLog log = new AnswerLog("busy", rows -> rows.forEach(r -> {
            if (!written.add(r.attemptId())) {
                duplicates.incrementAndGet();
            }
        }));
        int threads = 8;
        int perThread = 5_000;
        java.util.Set<String> handedBack = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads + 1);
        java.util.concurrent.CountDownLatch halfway = new java.util.concurrent.CountDownLatch(threads);
        java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
        java.util.List<Thread> adders = new java.util.ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread adder = new Thread(() -> {
                try {
                    start.await();
                    // The first half before close() is called, the rest racing it.
                    for (int i = 0; i < perThread; i++) {
                        add(log, thread + "-" + i, handedBack);
                        if (i == perThread / 2) {
                            halfway.countDown();
                        }
                    }
                    // And one surely after it.
                    closed.await();
                    add(log, thread + "-after-close", handedBack);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            adders.add(adder);
            adder.start();
        }
        start.await();
        halfway.await();
        log.close();
        closed.countDown();
        for (Thread adder : adders) {
            adder.join(30_000);
        }

        // Every answer is either written by the log or handed back to its caller to write, once.
        assertThat(duplicates.get()).isZero();
        assertThat(written).doesNotContainAnyElementsOf(handedBack);
        assertThat(written.size() + handedBack.size()).isEqualTo(threads * (perThread + 1));
        for (int t = 0; t < threads; t++) {
            assertThat(handedBack).as("an answer after close is handed back").contains(t + "-after-close");
        }
    }

    private static void add(AnswerLog log, String id, java.util.Set<String> handedBack) {
        if (!log.add(new AttemptRow(id, "k", "tool", AttemptOutcome.REPLAYED, 1, "h", null, null,
                Instant.now()))) {
            handedBack.add(id);
        }
    }

    private static Thread thread(String name) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals(name)) {
                    return t;
                }
            }
            Thread.sleep(5); // polling for the thread to appear, bounded by the deadline
        }
        throw new AssertionError("no thread " + name);
    }
}
