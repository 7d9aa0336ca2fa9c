package io.idempotent.runtime.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.testing.CapturedLog;
import io.idempotent.runtime.testing.FaultyDataSource;
import io.idempotent.runtime.testing.FaultyDataSource.Strike;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The answers a store holds in memory stay within {@code store.answer.queue.size} when the
 * database stalls: sixteen threads answering fill the queue, then each writes its own answer and
 * waits with the store; once the stall ends, every answer is written. A store closed while its
 * answers cannot be written says how many in one line.
 */
class AnswerQueueBoundTest {

    private static final int THREADS = 16;
    private static final int PER_THREAD = 50;
    private static final int BOUND = 40;
    /** The statement that writes answers to the attempt log (a batch, or a caller's own). */
    private static final String ANSWER_INSERT = "payload_hash, downstream_id, detail, started_at, ended_at)";
    private static final String TOOL = "refund";
    private static final String KEY = "refund:invoice_842";

    private static JdbcOperationStore store(TestDatabase db, FaultyDataSource faulty, Duration closeTimeout) {
        JdbcOperationStore store = new JdbcOperationStore("default", "test", faulty, faulty, Dialect.detect(db.url()),
                SchemaMode.CREATE, null, new AnswerLogLimits(BOUND, closeTimeout));
        // The operation the answers are about; it also prepares the schema before any stall.
        assertThat(store.claim(new ClaimRequest("a0", KEY, TOOL, "h", "{}", Duration.ofHours(1), Duration.ofDays(1),
                true))).isInstanceOf(ClaimResult.Inserted.class);
        return store;
    }

    private static AttemptRow replay(String attemptId) {
        return new AttemptRow(attemptId, KEY, TOOL, AttemptOutcome.REPLAYED, 0, "h", null, "secret-detail",
                Instant.now());
    }

    @OnBothDatabases
    void aStalledStoreHoldsNoMoreAnswersThanTheBoundAndWritesThemAllOnceItAnswers(TestDatabase db) throws Exception {
        FaultyDataSource faulty = new FaultyDataSource(db);
        JdbcOperationStore store = store(db, faulty, Duration.ofSeconds(5));
        faulty.stallStatements(ANSWER_INSERT, Integer.MAX_VALUE);

        AtomicInteger mostQueued = new AtomicInteger();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                mostQueued.accumulateAndGet(store.queuedAnswers(), Math::max);
                // A sample every 50 µs, not a busy loop: the reservation itself keeps the bound.
                LockSupport.parkNanos(50_000);
            }
        }, "queue-sampler");
        sampler.start();
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Thread> answering = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            Thread caller = new Thread(() -> {
                try {
                    start.await(30, TimeUnit.SECONDS);
                    for (int i = 0; i < PER_THREAD; i++) {
                        store.logAttempt(replay(thread + "-" + i));
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "answering-" + t);
            answering.add(caller);
            caller.start();
        }

        // The queue is full, so every caller writes its own answer, and waits with the store's writer.
        TestDatabase.await(() -> faulty.stalledNow() == THREADS + 1, Duration.ofSeconds(60),
                "every caller and the writer held by the stalled store");
        assertThat(store.queuedAnswers()).isEqualTo(BOUND);
        faulty.releaseStalled();
        for (Thread caller : answering) {
            caller.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(caller.isAlive()).as(caller.getName() + " ended").isFalse();
        }
        sampling.set(false);
        sampler.join();

        assertThat(failures).isEmpty();
        assertThat(mostQueued.get()).as("the most answers held at once").isEqualTo(BOUND);
        store.flushAttemptLog();
        assertThat(store.queuedAnswers()).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM tool_operation_attempts WHERE operation_key = ? AND outcome = ?",
                KEY, "REPLAYED")).isEqualTo(THREADS * PER_THREAD);
        store.close();
    }

    @OnBothDatabases
    void aStoreClosedWhileItsAnswersCannotBeWrittenCountsThemInOneLine(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        JdbcOperationStore store = store(db, faulty, Duration.ofMillis(500));
        faulty.breakUpdates(ANSWER_INSERT, Integer.MAX_VALUE, Strike.BEFORE_EXECUTING);
        for (int i = 0; i < 7; i++) {
            store.logAttempt(replay("r" + i));
        }

        try (CapturedLog log = new CapturedLog()) {
            store.close();
            List<String> lines = log.lines().stream().filter(l -> l.contains("before the store closed")).toList();
            assertThat(lines).hasSize(1);
            assertThat(lines.get(0)).contains("store default: could not write 7 answers to the attempt log before the"
                    + " store closed (tools: refund)").doesNotContain("secret-detail").doesNotContain(KEY);
        }
        assertThat(db.queryLong("SELECT count(*) FROM tool_operation_attempts WHERE outcome = ?", "REPLAYED")).isZero();
    }
}
