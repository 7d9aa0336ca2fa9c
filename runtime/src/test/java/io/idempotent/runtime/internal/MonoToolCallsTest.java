package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.MissingOperationKeyException;
import io.idempotent.runtime.OperationInProgressException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.KeyParts;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * A tool whose body returns a {@code Mono}: nothing is claimed until a subscription, each
 * subscription is a call of the same key (a retry, as {@code retryWhen} makes one), the step comes
 * from the subscriber's Reactor Context, and a cancelled subscription cancels the call.
 */
class MonoToolCallsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Map<String, Object> PAYLOAD = Map.of("id", "1");

    private static ToolPolicy refund() {
        return Policies.downstreamKey("refund", Retry.SAFE).build();
    }

    /** A tool settled by a person that marks its effect boundary. */
    private static ToolPolicy sendNotice() {
        return Policies.marked("notify", Retry.SAFE).build();
    }

    private static <T> Mono<T> mono(IdempotentRuntime runtime, ToolPolicy policy, Supplier<String> key,
            Supplier<Mono<T>> body) {
        return MonoToolCalls.call(RuntimeAccess.engine(runtime).async(), policy, key, PAYLOAD, String.class, null,
                body);
    }

    @OnBothDatabases
    void claimsOnlyWhenSubscribedAndASecondSubscriptionIsAReplay(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        AtomicInteger runs = new AtomicInteger();
        Mono<String> refund = mono(runtime, refund(), () -> "k:mono", () -> Mono.fromSupplier(() -> {
            runs.incrementAndGet();
            return "refund-" + runs.get();
        }));
        assertThat(db.operationRows()).as("records before any subscription").isZero();

        assertThat(refund.block(WAIT)).isEqualTo("refund-1");
        assertThat(refund.block(WAIT)).isEqualTo("refund-1");

        assertThat(runs).as("runs of the body").hasValue(1);
        assertThat(db.attemptOutcomes("k:mono")).containsExactly("COMPLETED", "REPLAYED");
    }

    @OnBothDatabases
    void retryWhenRetriesTheSameKeyAfterAFailureBeforeTheEffectBoundary(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        AtomicInteger runs = new AtomicInteger();
        Mono<String> notice = mono(runtime, sendNotice(), () -> "k:retried", () -> runs.incrementAndGet() == 1
                ? Mono.error(new IOException("connection refused")) : Mono.just("sent"));

        String sent = notice.retryWhen(reactor.util.retry.Retry.max(2)).block(WAIT);

        assertThat(sent).isEqualTo("sent");
        assertThat(runs).hasValue(2);
        assertThat(db.status("k:retried")).isEqualTo("completed");
        assertThat(db.queryLong("SELECT attempts FROM tool_operations WHERE operation_key = ?", "k:retried"))
                .as("attempts of the one operation").isEqualTo(2);
    }

    @OnBothDatabases
    void theStepComesFromTheSubscribersContextAndMustAgreeWithTheThreads(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        Mono<String> refund = mono(runtime, refund(), () -> "k:" + KeyParts.step("refund"),
                () -> Mono.just("refund-1"));

        assertThat(refund.contextWrite(Context.of(Step.CONTEXT_KEY, "decision-9")).block(WAIT)).isEqualTo("refund-1");
        assertThat(db.status("k:decision-9")).isEqualTo("completed");

        Throwable refused;
        try (Step other = Step.begin("decision-10")) {
            refused = catchThrowable(() -> refund.contextWrite(Context.of(Step.CONTEXT_KEY, "decision-9"))
                    .block(WAIT));
        }
        assertThat(refused).isInstanceOf(MissingOperationKeyException.class)
                .hasMessageContaining("carries step \"decision-9\" but the thread's Step is \"decision-10\"");
    }

    @OnBothDatabases
    void aCancelledSubscriptionCancelsTheBodyAndReleasesTheClaimBeforeTheBoundary(TestDatabase db)
            throws Exception {
        IdempotentRuntime runtime = db.runtime();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch bodyCancelled = new CountDownLatch(1);
        Mono<String> notice = mono(runtime, sendNotice(), () -> "k:disposed", () -> {
            runs.incrementAndGet();
            return Mono.<String>never().doOnCancel(bodyCancelled::countDown);
        });
        Disposable subscription = notice.subscribe();
        TestDatabase.await(() -> runs.get() == 1, WAIT, "the body to start");

        subscription.dispose();

        assertThat(bodyCancelled.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the body's Mono cancelled").isTrue();
        TestDatabase.await(() -> "failed_safe".equals(db.status("k:disposed")), WAIT, "the claim's release");
    }

    @OnBothDatabases
    void twoConcurrentSubscribersOfOneKeyMakeOneEffect(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<String> downstream = new CompletableFuture<>();
        Mono<String> refund = mono(runtime, refund(), () -> "k:subscribers", () -> {
            runs.incrementAndGet();
            return Mono.fromFuture(downstream);
        });
        CyclicBarrier together = new CyclicBarrier(2);
        List<CompletableFuture<String>> subscribers = new CopyOnWriteArrayList<>();
        Runnable subscriber = () -> {
            try {
                together.await(WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            subscribers.add(refund.toFuture());
        };
        Thread a = new Thread(subscriber);
        Thread b = new Thread(subscriber);
        a.start();
        b.start();
        a.join(WAIT.toMillis());
        b.join(WAIT.toMillis());
        assertThat(subscribers).hasSize(2);
        TestDatabase.await(() -> subscribers.stream().anyMatch(CompletableFuture::isDone), WAIT,
                "the losing subscriber's answer");
        CompletableFuture<String> loser = subscribers.stream().filter(CompletableFuture::isDone).findFirst()
                .orElseThrow();
        CompletableFuture<String> winner = subscribers.get(subscribers.get(0) == loser ? 1 : 0);
        Throwable lost = catchThrowable(() -> loser.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertThat(lost).isInstanceOf(ExecutionException.class).cause().isInstanceOf(OperationInProgressException.class);

        downstream.complete("refund-1");

        assertThat(winner.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("refund-1");
        assertThat(runs).as("runs of the body").hasValue(1);
    }
}
