package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import reactor.core.publisher.Mono;

/**
 * Tools call tools: an asynchronous tool whose body calls another and joins it (or composes it,
 * or blocks on a {@code Mono}, or goes through a synchronous tool) is answered, with twice as
 * many such calls at once as the runtime has threads for its own store work. No body or
 * dependent of the application ever holds a thread that a claim or a completion waits for.
 */
class AsyncCompositionTest {

    /** Twice the runtime's default threads for claims and completions. */
    private static final int CALLS = 2 * AsyncToolCalls.THREADS;
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** The synchronous callers' threads. */
    private static final java.util.concurrent.Executor CALLERS = java.util.concurrent.Executors.newCachedThreadPool(
            r -> {
                Thread t = new Thread(r, "caller");
                t.setDaemon(true);
                return t;
            });

    private static ToolPolicy tool(String name) {
        return Policies.downstreamKey(name, Retry.SAFE).build();
    }

    private static Map<String, Object> payload(int i) {
        return Map.of("id", i);
    }

    /** Starts {@link #CALLS} calls at once and waits for each answer. */
    private static void allAnswered(TestDatabase db, IntFunction<CompletableFuture<String>> call, String... tools)
            throws Exception {
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            calls.add(call.apply(i));
        }
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        for (int i = 0; i < CALLS; i++) {
            assertThat(calls.get(i).get()).isEqualTo("outer(inner-" + i + ")");
        }
        for (String name : tools) {
            assertThat(db.queryLong("SELECT count(*) FROM tool_operations WHERE tool = ? AND status = 'completed'",
                    name)).as("completed operations of " + name).isEqualTo(CALLS);
        }
    }

    @OnBothDatabases
    void anAsynchronousToolJoiningAnotherInItsBodyIsAnswered(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        AsyncToolCalls async = RuntimeAccess.engine(runtime).async();
        allAnswered(db, i -> async.call(tool("refund"), "refund:" + i, payload(i), String.class, null, () -> {
            String inner = async.<String>call(tool("ledger"), "ledger:" + i, payload(i), String.class, null,
                    () -> CompletableFuture.completedFuture("inner-" + i)).join();
            return CompletableFuture.completedFuture("outer(" + inner + ")");
        }), "refund", "ledger");
    }

    @OnBothDatabases
    void aThenComposeChainWhoseDependentJoinsAToolIsAnswered(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        AsyncToolCalls async = RuntimeAccess.engine(runtime).async();
        allAnswered(db, i -> async.<String>call(tool("quote"), "quote:" + i, payload(i), String.class, null,
                () -> CompletableFuture.completedFuture("inner-" + i))
                .thenCompose(quote -> async.<String>call(tool("order"), "order:" + i, payload(i), String.class, null,
                        () -> CompletableFuture.completedFuture(quote)))
                // A dependent that blocks on a third tool: it runs on whatever thread completed the stage.
                .thenApply(order -> async.<String>call(tool("receipt"), "receipt:" + i, payload(i), String.class,
                        null, () -> CompletableFuture.completedFuture("outer(" + order + ")")).join()),
                "quote", "order", "receipt");
    }

    @OnBothDatabases
    void aMonoToolBlockingOnAMonoToolIsAnswered(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        AsyncToolCalls async = RuntimeAccess.engine(runtime).async();
        allAnswered(db, i -> MonoToolCalls.<String>call(async, tool("mono_outer"), () -> "mono_outer:" + i,
                payload(i), String.class, null, () -> {
                    String inner = MonoToolCalls.<String>call(async, tool("mono_inner"), () -> "mono_inner:" + i,
                            payload(i), String.class, null, () -> Mono.just("inner-" + i)).block(WAIT);
                    return Mono.just("outer(" + inner + ")");
                }).toFuture(), "mono_outer", "mono_inner");
    }

    @OnBothDatabases
    void aMonoToolComposingAMonoToolIsAnswered(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        AsyncToolCalls async = RuntimeAccess.engine(runtime).async();
        allAnswered(db, i -> MonoToolCalls.<String>call(async, tool("mono_outer"), () -> "mono_outer:" + i,
                payload(i), String.class, null, () -> MonoToolCalls.<String>call(async, tool("mono_inner"),
                        () -> "mono_inner:" + i, payload(i), String.class, null, () -> Mono.just("inner-" + i))
                        .map(inner -> "outer(" + inner + ")")).toFuture(), "mono_outer", "mono_inner");
    }

    @OnBothDatabases
    void anAsynchronousToolCallingASynchronousToolThatJoinsAnAsynchronousOneIsAnswered(TestDatabase db)
            throws Exception {
        IdempotentRuntime runtime = db.runtime();
        AsyncToolCalls async = RuntimeAccess.engine(runtime).async();
        allAnswered(db, i -> async.call(tool("agent_step"), "agent_step:" + i, payload(i), String.class, null,
                () -> CompletableFuture.completedFuture(runtime.call(tool("refund_sync"), "refund_sync:" + i,
                        payload(i), String.class, () -> async.<String>call(tool("ledger"), "ledger:" + i, payload(i),
                                String.class, null, () -> CompletableFuture.completedFuture("outer(inner-" + i + ")"))
                                .join()))), "agent_step", "refund_sync", "ledger");
    }

    @OnBothDatabases
    void aSynchronousToolJoiningAnAsynchronousOneIsAnswered(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        AsyncToolCalls async = RuntimeAccess.engine(runtime).async();
        allAnswered(db, i -> CompletableFuture.supplyAsync(() -> runtime.call(tool("refund_sync"),
                "refund_sync:" + i, payload(i), String.class, () -> "outer(" + async.<String>call(tool("ledger"),
                        "ledger:" + i, payload(i), String.class, null,
                        () -> CompletableFuture.completedFuture("inner-" + i)).join() + ")"),
                CALLERS), "refund_sync", "ledger");
    }

    @OnBothDatabases
    void aToolJoiningItselfWithItsOwnKeyIsToldInProgressAtOnce(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        AsyncToolCalls async = RuntimeAccess.engine(runtime).async();
        java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
        java.util.function.Supplier<CompletableFuture<String>> self = new java.util.function.Supplier<>() {
            @Override
            public CompletableFuture<String> get() {
                runs.incrementAndGet();
                return CompletableFuture.completedFuture(async.<String>call(tool("loop"), "loop:1", payload(1),
                        String.class, null, this).join());
            }
        };
        CompletableFuture<String> call = async.call(tool("loop"), "loop:1", payload(1), String.class, null, self);

        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(
                () -> call.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertThat(thrown).isInstanceOf(java.util.concurrent.ExecutionException.class)
                .cause().isInstanceOf(io.idempotent.runtime.OperationInProgressException.class);
        assertThat(runs).as("runs of the body").hasValue(1);
    }
}
