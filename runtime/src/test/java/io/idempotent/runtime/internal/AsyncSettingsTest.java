package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The settings of asynchronous tools: the runtime's threads, the bound of pending calls (whose
 * refusal of a nested call names both tools, at once), and the application's own executor or
 * Reactor scheduler for the bodies, on which a nesting still never waits for its caller's thread.
 */
class AsyncSettingsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static ToolPolicy tool(String name) {
        return Policies.downstreamKey(name, Retry.SAFE).build();
    }

    private static Map<String, Object> payload(int i) {
        return Map.of("id", i);
    }

    @OnBothDatabases
    void bodiesRunOnTheApplicationsExecutorAndANestedJoinOnAFullExecutorIsAnswered(TestDatabase db)
            throws Exception {
        ExecutorService application = Executors.newFixedThreadPool(2, r -> new Thread(r, "app-bodies"));
        db.onCleanUp(application::shutdownNow);
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().asyncThreads(1).asyncBodies(application).build());
        AsyncToolCalls async = RuntimeAccess.engine(runtime).async();
        Set<String> outerThreads = ConcurrentHashMap.newKeySet();
        Set<String> innerThreads = ConcurrentHashMap.newKeySet();
        List<CompletableFuture<String>> calls = new ArrayList<>();
        // Twice the application's threads, each held by an outer body that joins an inner call.
        for (int i = 0; i < 4; i++) {
            int n = i;
            calls.add(async.call(tool("outer"), "outer:" + i, payload(i), String.class, null, () -> {
                outerThreads.add(Thread.currentThread().getName());
                String inner = async.<String>call(tool("inner"), "inner:" + n, payload(n), String.class, null, () -> {
                    innerThreads.add(Thread.currentThread().getName());
                    return CompletableFuture.completedFuture("inner-" + n);
                }).join();
                return CompletableFuture.completedFuture("outer(" + inner + ")");
            }));
        }
        for (int i = 0; i < 4; i++) {
            assertThat(calls.get(i).get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("outer(inner-" + i + ")");
        }
        assertThat(outerThreads).containsExactly("app-bodies");
        assertThat(innerThreads).allMatch(t -> t.startsWith(AsyncToolCalls.BODY_THREAD_NAME + "-"));
    }

    @OnBothDatabases
    void aReactorSchedulerRunsMonoBodiesThatBlockOnMonoTools(TestDatabase db) throws Exception {
        Scheduler scheduler = Schedulers.newBoundedElastic(2, 100, "app-reactor");
        db.onCleanUp(scheduler::dispose);
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().asyncBodies(scheduler::schedule).build());
        AsyncToolCalls async = RuntimeAccess.engine(runtime).async();
        Set<String> outerThreads = ConcurrentHashMap.newKeySet();
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int n = i;
            calls.add(MonoToolCalls.<String>call(async, tool("mono_outer"), () -> "mono_outer:" + n, payload(n),
                    String.class, null, () -> {
                        outerThreads.add(Thread.currentThread().getName());
                        String inner = MonoToolCalls.<String>call(async, tool("mono_inner"), () -> "mono_inner:" + n,
                                payload(n), String.class, null, () -> Mono.just("inner-" + n)).block(WAIT);
                        return Mono.just("outer(" + inner + ")");
                    }).toFuture());
        }
        for (int i = 0; i < 4; i++) {
            assertThat(calls.get(i).get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("outer(inner-" + i + ")");
        }
        assertThat(outerThreads).allMatch(t -> t.startsWith("app-reactor"));
    }

    @OnBothDatabases
    void aNestedCallBeyondTheBoundIsRefusedAtOnceNamingBothTools(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().asyncMaxPending(2).build());
        AsyncToolCalls async = RuntimeAccess.engine(runtime).async();
        CountDownLatch bothOuterBodies = new CountDownLatch(2);
        // Both inner calls are made before either outer call ends: an outer call that ended would
        // free its place under the bound, and the other's inner call could then be admitted.
        CountDownLatch bothInnerCalls = new CountDownLatch(2);
        AtomicInteger innerRuns = new AtomicInteger();
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            int n = i;
            calls.add(async.call(tool("refund"), "refund:" + i, payload(i), String.class, null, () -> {
                awaitOthers(bothOuterBodies);
                CompletableFuture<String> inner = async.call(tool("ledger"), "ledger:" + n, payload(n), String.class,
                        null, () -> {
                            innerRuns.incrementAndGet();
                            return CompletableFuture.completedFuture("never");
                        });
                awaitOthers(bothInnerCalls);
                return CompletableFuture.completedFuture(inner.join());
            }));
        }
        for (CompletableFuture<String> call : calls) {
            Throwable thrown = catchThrowable(() -> call.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            assertThat(thrown).isInstanceOf(ExecutionException.class);
            // The outer body's join threw the refusal: the outer call fails with it, unwrapped.
            Throwable refusal = thrown.getCause();
            assertThat(refusal).isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("ledger")
                    .hasMessageContaining("called from the body of tool refund")
                    .hasMessageContaining("2 asynchronous tool calls pending, its bound (async.max.pending)");
        }
        assertThat(innerRuns).as("runs of the refused inner body").hasValue(0);
        assertThat(db.queryLong("SELECT count(*) FROM tool_operations WHERE tool = 'ledger'")).isZero();
    }

    /** Counts this body down on {@code latch} and waits for the others. */
    private static void awaitOthers(CountDownLatch latch) {
        latch.countDown();
        try {
            latch.await(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @OnBothDatabases
    void aCallCancelledWhileItsBodyWaitsForTheApplicationsExecutorIsReleasedWithoutRunningIt(TestDatabase db)
            throws Exception {
        java.util.concurrent.LinkedBlockingQueue<Runnable> held = new java.util.concurrent.LinkedBlockingQueue<>();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().asyncBodies(held::add).build());
        AsyncToolCalls async = RuntimeAccess.engine(runtime).async();
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<String> call = async.call(tool("refund"), "refund:held", payload(1), String.class, null,
                () -> {
                    runs.incrementAndGet();
                    return CompletableFuture.completedFuture("ran");
                });
        Runnable body = held.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(body).as("the body handed to the executor after the claim").isNotNull();
        assertThat(db.status("refund:held")).isEqualTo("in_progress");

        call.cancel(false);
        body.run(); // the executor gets to it only now

        TestDatabase.await(() -> "failed_safe".equals(db.status("refund:held")), WAIT, "the claim to be released");
        assertThat(runs).as("runs of the cancelled body").hasValue(0);
    }

    @Test
    void theSettingsAreReadFromTheConfigurationAndCheckedThere() {
        RuntimeConfiguration configured = new RuntimeConfiguration(Map.of("idempotent.async.threads", "3"),
                Map.of("IDEMPOTENT_ASYNC_MAX_PENDING", "4096"));
        assertThat(configured.number("async.threads")).hasValue(3);
        assertThat(configured.number("async.max.pending")).hasValue(4096);
        assertThat(new RuntimeConfiguration(Map.of(), Map.of()).number("async.threads")).isEmpty();
        assertThatThrownBy(() -> new RuntimeConfiguration(Map.of("idempotent.async.max.pending", "0"), Map.of())
                .number("async.max.pending")).isInstanceOf(StoreConfigurationException.class)
                .hasMessageContaining("idempotent.async.max.pending");
        assertThatThrownBy(() -> new RuntimeConfiguration(Map.of("idempotent.async.thread", "2"), Map.of())
                .number("async.threads")).isInstanceOf(StoreConfigurationException.class)
                .hasMessageContaining("idempotent.async.threads");
        assertThatThrownBy(() -> IdempotentRuntime.builder().asyncThreads(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("asyncThreads must be at least 1");
    }
}
