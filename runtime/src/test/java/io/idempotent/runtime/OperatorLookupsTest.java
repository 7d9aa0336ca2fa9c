package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The operator's lookups by state: what is running now, and what waits for a person. */
class OperatorLookupsTest {

    @OnBothDatabases
    void inProgressAndAwaitingReconciliationListOnlyTheirOwnState(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy mail = Policies.manualReview("send_mail", Retry.SAFE).lease(Duration.ofMinutes(5)).build();
        runtime.call(mail, "done", Map.of(), String.class, () -> "sent");
        assertThatThrownBy(() -> runtime.call(mail, "unsure", Map.of(), String.class, () -> {
            throw new IllegalStateException("reply lost");
        })).isInstanceOf(IllegalStateException.class);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> busy = CompletableFuture.supplyAsync(() -> runtime.call(mail, "busy", Map.of(),
                String.class, () -> {
                    running.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    return "sent later";
                }));
        try {
            assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(runtime.operations().inProgress("default", 10)).extracting(OperationRecord::key)
                    .containsExactly("busy");
            assertThat(runtime.operations().awaitingReconciliation("default", 10)).extracting(OperationRecord::key)
                    .containsExactly("unsure");
            assertThat(runtime.operations().inProgress("default", 0)).isEmpty();
        } finally {
            release.countDown();
        }
        assertThat(busy.get(30, TimeUnit.SECONDS)).isEqualTo("sent later");
        assertThat(runtime.operations().inProgress("default", 10)).isEmpty();
    }
}
