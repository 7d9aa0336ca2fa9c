package io.idempotent.failover;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.Policies;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Worker threads calling two tools through one runtime, as an agent's tool calls do: a refund
 * whose provider deduplicates the operation key ({@link DedupingDownstream}; {@code Retry.UNCERTAIN}),
 * and an email without a downstream key ({@code Retry.SAFE}, an uncertain outcome settled by a person) that marks its
 * effect boundary and, on one key in seven, fails before it (a safe failure the worker retries
 * with the same key). Every fourth call repeats a key the worker already had answered: a replay.
 *
 * <p>It records what a failover must not break: each answer acknowledged to a caller (the
 * operation's result), how often each body ran and each effect happened, and every exception the
 * runtime answered instead of a result.
 */
final class ToolLoad implements AutoCloseable {

    static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.UNCERTAIN).build();
    static final ToolPolicy EMAIL = Policies.marked("email", Retry.SAFE).build();

    /** One operation: a tool's key. */
    record Op(ToolPolicy tool, String key) {
        String id() {
            return tool.name() + "/" + key;
        }
    }

    /** An answer that was not a result: the exception, and whether this call had run the body. */
    record Failure(Op op, Throwable thrown, boolean bodyRan) {
    }

    /** The email body's failure before its effect boundary: nothing was sent. */
    static final class NotSentYet extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotSentYet() {
            super("the mail server refused the connection; nothing was sent", null, false, false);
        }
    }

    private final IdempotentRuntime runtime;
    private final DedupingDownstream provider = new DedupingDownstream();
    private final List<Thread> workers = new ArrayList<>();
    private final AtomicBoolean stopped = new AtomicBoolean();

    private final Map<String, String> acknowledged = new ConcurrentHashMap<>();
    private final Map<String, Op> ops = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> bodyRuns = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> emailsSent = new ConcurrentHashMap<>();
    private final AtomicInteger completions = new AtomicInteger();
    private final AtomicInteger replays = new AtomicInteger();
    private final Queue<Failure> failures = new ConcurrentLinkedQueue<>();
    private final Queue<String> replayProblems = new ConcurrentLinkedQueue<>();
    private final Queue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<Boolean> bodyRan = ThreadLocal.withInitial(() -> false);

    ToolLoad(IdempotentRuntime runtime) {
        this.runtime = runtime;
    }

    /** Starts {@code threads} workers. */
    ToolLoad start(int threads) {
        for (int w = 0; w < threads; w++) {
            int worker = w;
            Thread thread = new Thread(() -> work(worker), "tool-load-" + w);
            thread.setDaemon(true);
            workers.add(thread);
            thread.start();
        }
        return this;
    }

    private void work(int worker) {
        List<Op> mine = new ArrayList<>();
        java.util.Random random = new java.util.Random(worker);
        for (int seq = 0; !stopped.get(); seq++) {
            if (seq % 4 == 3 && !mine.isEmpty()) {
                replay(mine.get(random.nextInt(mine.size())));
                continue;
            }
            Op op = new Op(seq % 2 == 0 ? REFUND : EMAIL, "w" + worker + ":" + seq);
            ops.put(op.id(), op);
            // A safe failure (before the boundary) is retried with the same key, as the policy allows.
            for (int tries = 0; tries < 2 && !stopped.get(); tries++) {
                try {
                    String result = call(op);
                    acknowledged.put(op.id(), result);
                    completions.incrementAndGet();
                    mine.add(op);
                    break;
                } catch (NotSentYet safe) {
                    // nothing was sent: the retry claims the failed_safe operation again
                } catch (IdempotencyException e) {
                    failures.add(new Failure(op, e, bodyRan.get()));
                    break;
                } catch (RuntimeException | Error e) {
                    unexpected.add(new AssertionError(op.id() + ", try " + (tries + 1) + ": " + e, e));
                    break;
                }
            }
        }
    }

    private void replay(Op op) {
        int runsBefore = bodyRuns(op);
        try {
            String result = call(op);
            replays.incrementAndGet();
            if (bodyRuns(op) != runsBefore) {
                replayProblems.add(op.id() + ": the body ran again");
            } else if (!result.equals(acknowledged.get(op.id()))) {
                replayProblems.add(op.id() + ": replayed another result");
            }
        } catch (NotSentYet e) {
            // Only a first attempt fails so: the key's record was gone (asynchronous replication).
            replayProblems.add(op.id() + ": the body ran again, as a first attempt");
        } catch (IdempotencyException e) {
            failures.add(new Failure(op, e, bodyRan.get()));
        } catch (RuntimeException | Error e) {
            unexpected.add(new AssertionError(op.id() + ", a replay: " + e, e));
        }
    }

    /** One call of the operation's tool through the runtime. */
    String call(Op op) {
        return callAround(op, () -> { });
    }

    /** One call whose body first runs {@code inBody} (a test holds it there while the store changes). */
    String callAround(Op op, Runnable inBody) {
        bodyRan.set(false);
        return runtime.call(op.tool(), op.key(), Map.of("id", op.key()), String.class, () -> {
            bodyRan.set(true);
            bodyRuns.computeIfAbsent(op.id(), k -> new AtomicInteger()).incrementAndGet();
            inBody.run();
            OperationContext operation = OperationContext.current();
            if (op.tool() == REFUND) {
                return provider.refund(operation.key());
            }
            if (operation.attempt() == 1 && Math.floorMod(op.key().hashCode(), 7) == 0) {
                throw new NotSentYet();
            }
            operation.effectStarting("mail-" + operation.key());
            emailsSent.computeIfAbsent(op.id(), k -> new AtomicInteger()).incrementAndGet();
            return "sent " + operation.key();
        });
    }

    /** Stops the workers and waits for them (again: nothing). */
    void stop() {
        if (stopped.getAndSet(true)) {
            return;
        }
        for (Thread worker : workers) {
            try {
                worker.join(TimeUnit.MINUTES.toMillis(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (worker.isAlive()) {
                throw new AssertionError(worker.getName() + " did not end: a call hangs");
            }
        }
    }

    @Override
    public void close() {
        stop();
    }

    /** Results acknowledged to callers so far (fresh calls, not replays). */
    int completions() {
        return completions.get();
    }

    int replays() {
        return replays.get();
    }

    int failureCount() {
        return failures.size();
    }

    List<Failure> failures() {
        return List.copyOf(failures);
    }

    List<Throwable> unexpected() {
        return List.copyOf(unexpected);
    }

    List<String> replayProblems() {
        return List.copyOf(replayProblems);
    }

    /** Every acknowledged operation with its result, as of now. */
    Map<String, String> acknowledged() {
        return Map.copyOf(acknowledged);
    }

    Op op(String id) {
        return ops.get(id);
    }

    /** Every operation whose body ran at least once. */
    List<String> ran() {
        return List.copyOf(bodyRuns.keySet());
    }

    int bodyRuns(Op op) {
        AtomicInteger runs = bodyRuns.get(op.id());
        return runs == null ? 0 : runs.get();
    }

    /** Emails sent more than once: second effects of a tool without a downstream key. */
    List<String> emailsSentTwice() {
        List<String> twice = new ArrayList<>();
        emailsSent.forEach((id, n) -> {
            if (n.get() > 1) {
                twice.add(id);
            }
        });
        Collections.sort(twice);
        return twice;
    }

    DedupingDownstream provider() {
        return provider;
    }
}
