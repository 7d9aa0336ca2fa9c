package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.json.JsonMapper;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.RuntimeConfiguration.StoreSettings;
import io.idempotent.runtime.internal.store.AnswerLogLimits;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.testing.CapturedLog;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The race of a call with close(): a call that read its row before the runtime closed, and whose
 * answer reaches the store only after the wait for calls in flight gave up and the pool closed,
 * must not return that answer, which the attempt log would never show: it is refused as closed.
 */
class CloseRaceTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final String KEY = "refund:invoice_842";
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842");

    @OnBothDatabases
    void aReplayWhoseAnswerArrivesAfterThePoolClosedIsRefusedNotAnswered(TestDatabase db) throws Exception {
        OperationStore real = DataSources.open(new StoreSettings("default", db.url(), db.user(), db.password(),
                SchemaMode.CREATE, 2, Duration.ofSeconds(5), StoreSettings.DEFAULT_SOCKET_TIMEOUT,
                new AnswerLogLimits(100, Duration.ofMillis(200))));
        CountDownLatch answering = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        // The store as the engine sees it; the replay's answer waits until the runtime has closed.
        OperationStore store = (OperationStore) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {OperationStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("logAttempt")) {
                        answering.countDown();
                        assertThat(closed.await(30, TimeUnit.SECONDS)).isTrue();
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        JsonMapper mapper = JsonMapper.builder().build();
        Engine engine = new Engine(new StoreRegistry(Map.of("default", store)), new PayloadCodec(mapper),
                new ResultCodec(mapper), new MetricsListener() { });
        try {
            Invocation first = engine.begin(REFUND, KEY, PAYLOAD, String.class);
            assertThat(((Invocation.Execution) first).succeeded("refund#1")).isEqualTo("refund#1");

            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread replay = new Thread(() -> {
                try {
                    outcome.set(((Invocation.Replay) engine.begin(REFUND, KEY, PAYLOAD, String.class)).result());
                } catch (RuntimeException e) {
                    outcome.set(e);
                }
            }, "late-replay");
            replay.start();
            assertThat(answering.await(30, TimeUnit.SECONDS)).isTrue();
            try (CapturedLog log = new CapturedLog()) {
                // Waits 200 ms for the replay, which is still deciding, then drains and closes the pool.
                engine.close();
                assertThat(log.text()).contains("closing the runtime: 1 calls were still being decided after PT0.2S");
            }
            closed.countDown();
            replay.join(TimeUnit.SECONDS.toMillis(30));

            assertThat(outcome.get()).isInstanceOf(StoreConfigurationException.class);
            assertThat(((StoreConfigurationException) outcome.get()).getMessage())
                    .contains("tool refund, key refund:invoice_842").contains("this IdempotentRuntime was closed");
            assertThat(db.queryLong("SELECT count(*) FROM tool_operation_attempts WHERE operation_key = ?"
                    + " AND outcome = ?", KEY, "REPLAYED")).isZero();
        } finally {
            closed.countDown();
            engine.close();
        }
    }
}
