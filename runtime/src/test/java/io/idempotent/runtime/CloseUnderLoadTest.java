package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Closing a runtime while sixteen threads replay: every answer a call returned is in the attempt
 * log afterwards, and a call that could not be answered that way was refused as closed. The
 * answers are written in batches after their calls return, so close() must wait for the calls in
 * flight and write the queue before the pool closes.
 */
class CloseUnderLoadTest {

    private static final int THREADS = 16;
    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final String KEY = "refund:invoice_842";
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842");

    @OnBothDatabases
    void everyReplayAnsweredBeforeCloseIsInTheAttemptLog(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().build());
        assertThat(runtime.call(REFUND, KEY, PAYLOAD, String.class, () -> "refund#1")).isEqualTo("refund#1");

        AtomicInteger returned = new AtomicInteger();
        AtomicInteger refusedAsClosed = new AtomicInteger();
        Queue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        CyclicBarrier start = new CyclicBarrier(THREADS + 1);
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            Thread caller = new Thread(() -> {
                try {
                    start.await(30, TimeUnit.SECONDS);
                    while (true) {
                        String result = runtime.call(REFUND, KEY, PAYLOAD, String.class, () -> "ran again");
                        if (!result.equals("refund#1")) {
                            unexpected.add(new AssertionError("replayed " + result));
                        }
                        returned.incrementAndGet();
                    }
                } catch (StoreConfigurationException e) {
                    if (e.getMessage().contains("IdempotentRuntime was closed")) {
                        refusedAsClosed.incrementAndGet();
                    } else {
                        unexpected.add(e);
                    }
                } catch (Throwable e) {
                    unexpected.add(e);
                }
            }, "replayer-" + i);
            callers.add(caller);
            caller.start();
        }
        start.await(30, TimeUnit.SECONDS);
        // Close while every thread replays, with answers queued and calls in flight.
        TestDatabase.await(() -> returned.get() >= THREADS * 20, Duration.ofSeconds(60), "replays before close");
        runtime.close();
        for (Thread caller : callers) {
            caller.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(caller.isAlive()).as(caller.getName() + " ended").isFalse();
        }

        assertThat(unexpected).isEmpty();
        assertThat(refusedAsClosed.get()).isEqualTo(THREADS);
        long rows = db.queryLong("SELECT count(*) FROM tool_operation_attempts WHERE operation_key = ? AND outcome = ?",
                KEY, "REPLAYED");
        System.out.println(db.kind() + ": " + returned.get() + " replays returned, " + rows + " REPLAYED rows");
        assertThat(rows).as("REPLAYED rows in the attempt log").isEqualTo(returned.get());
    }
}
