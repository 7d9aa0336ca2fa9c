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
        AnswerLog log = new AnswerLog("gone", rows -> {
            writes.incrementAndGet();
            throw new StoreUnavailableException(null, null, "the data source was closed", null);
        });
        assertThat(log.add(new AttemptRow("a1", "k", "tool", AttemptOutcome.REPLAYED, 0, "h", null, null, true,
                Instant.now()))).isTrue();
        Thread writer = thread("idempotent-attempt-log-gone");
        log.close();

        // Before the fix the thread tried the closed store again every 200 ms, forever.
        writer.join(30_000);
        assertThat(writer.isAlive()).as("the attempt-log thread of a closed store still runs after "
                + writes.get() + " writes").isFalse();
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
