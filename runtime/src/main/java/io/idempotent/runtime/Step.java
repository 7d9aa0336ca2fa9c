package io.idempotent.runtime;

import io.idempotent.policy.internal.KeyTemplate;
import io.idempotent.runtime.internal.OperationKeys;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;

/**
 * The step key of the deterministic workflow layer: the identity of one decision (for example
 * {@code "refund:invoice_842:approved_17"}), set around a tool call and read by keys that contain
 * {@code {step}}. The model never supplies it; the code that decided to call the tool does, and
 * uses the same step key when it repeats the call.
 *
 * <pre>{@code
 * try (Step step = Step.begin("refund:" + invoiceId + ":" + approvalId)) {
 *     tools.issueRefund(invoiceId, amount);
 * }
 * }</pre>
 *
 * <p>A step belongs to the current thread. Steps nest: closing one restores the enclosing step.
 * To carry a step to another thread, wrap the task ({@link #wrap(Runnable)},
 * {@link #wrap(Callable)}) or the executor ({@link #propagating(Executor)}); the step is captured
 * when the task is wrapped.
 */
public final class Step implements AutoCloseable {

    /**
     * The name of the step key's entry in an agent framework's context: Spring AI's
     * {@code ToolContext}, LangChain4j's {@code InvocationParameters}, an MCP request's
     * {@code _meta}. A reverse-DNS prefix makes it a valid MCP {@code _meta} key. A key with
     * {@code {step}} reads this entry of the tool method's context parameter first, then (a tool
     * returning Reactor's {@code Mono}, at subscription) this entry of the subscriber's Reactor
     * {@code Context}, then the thread's current step; two that differ refuse the call.
     */
    public static final String CONTEXT_KEY = KeyTemplate.STEP_CONTEXT_ENTRY;

    private static final ThreadLocal<Step> CURRENT = new ThreadLocal<>();

    private final String key;
    private final Step previous;
    private final Thread owner;
    private boolean closed;

    private Step(String key, Step previous) {
        this.key = key;
        this.previous = previous;
        this.owner = Thread.currentThread();
    }

    /**
     * Sets {@code key} as the current step on this thread until the returned scope is closed.
     *
     * @throws IllegalArgumentException if the key is blank, longer than 512 characters or holds
     *     control characters
     */
    public static Step begin(String key) {
        check(key);
        Step step = new Step(key, CURRENT.get());
        CURRENT.set(step);
        return step;
    }

    /**
     * The context entries that carry {@code stepKey} to a tool through an agent framework: a
     * one-entry map {@code {CONTEXT_KEY: stepKey}} to hand to the framework, for example
     * {@code chatClient.prompt(...).toolContext(Step.asContext(stepKey))} or
     * {@code InvocationParameters.from(Step.asContext(stepKey))}. The map is mutable, so other
     * entries can be added.
     *
     * @throws IllegalArgumentException if the key is not a valid step key (see {@link #begin})
     */
    public static Map<String, Object> asContext(String stepKey) {
        check(stepKey);
        Map<String, Object> context = new java.util.LinkedHashMap<>();
        context.put(CONTEXT_KEY, stepKey);
        return context;
    }

    /** Rejects what {@link #begin} rejects. */
    static void check(String key) {
        Objects.requireNonNull(key, "key");
        String problem = OperationKeys.problem(key);
        if (problem != null) {
            throw new IllegalArgumentException("step key " + problem);
        }
    }

    /** The current step key of this thread, if a step is set. */
    public static Optional<String> currentKey() {
        Step step = CURRENT.get();
        return step == null ? Optional.empty() : Optional.of(step.key);
    }

    /** This step's key. */
    public String key() {
        return key;
    }

    /** Restores the step that was current when this one began. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("a Step must be closed on the thread that began it");
        }
        if (CURRENT.get() != this) {
            throw new IllegalStateException("Step \"" + key + "\" closed out of order: close inner steps first");
        }
        closed = true;
        if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
    }

    /**
     * Runs {@code task} later, on any thread, under the step that is current now: with no step if
     * none is current now, whatever step the executing thread has. The executing thread's own
     * step is restored when the task ends.
     */
    public static Runnable wrap(Runnable task) {
        Objects.requireNonNull(task, "task");
        String captured = CURRENT.get() == null ? null : CURRENT.get().key;
        return () -> {
            Step saved = enter(captured);
            try {
                task.run();
            } finally {
                restore(saved);
            }
        };
    }

    /**
     * Calls {@code task} later, on any thread, under the step that is current now (with no step
     * if none is), like {@link #wrap(Runnable)}.
     */
    public static <V> Callable<V> wrap(Callable<V> task) {
        Objects.requireNonNull(task, "task");
        String captured = CURRENT.get() == null ? null : CURRENT.get().key;
        return () -> {
            Step saved = enter(captured);
            try {
                return task.call();
            } finally {
                restore(saved);
            }
        };
    }

    /** Makes {@code key} (or no step, for null) current; returns the step it replaced. */
    private static Step enter(String key) {
        Step saved = CURRENT.get();
        if (key == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(new Step(key, null));
        }
        return saved;
    }

    private static void restore(Step saved) {
        if (saved == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(saved);
        }
    }

    /**
     * An executor that runs each task under the step that was current when the task was
     * submitted.
     */
    public static Executor propagating(Executor executor) {
        Objects.requireNonNull(executor, "executor");
        return task -> executor.execute(wrap(task));
    }

    @Override
    public String toString() {
        return "Step[" + key + "]";
    }
}
