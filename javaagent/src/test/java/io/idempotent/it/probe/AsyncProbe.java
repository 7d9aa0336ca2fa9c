package io.idempotent.it.probe;

import io.idempotent.it.probe.AsyncProbeHooks.Mode;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import reactor.util.retry.Retry;

/**
 * The main class of the forked JVMs that call {@link AsyncProbeTools} plainly, as an application
 * would; outcomes are printed as {@link AgentProbe} prints them ({@code OUTCOME <label> RESULT ...}
 * or {@code THROWN <class> ...}), then {@code BODY_RUNS <n>}.
 *
 * <p>Commands (ORDER AMOUNT after each): {@code twice}, {@code concurrent}, {@code nested}, {@code cancel-before},
 * {@code cancel-after}, {@code halt}, {@code once}, {@code mono-retry}, {@code static-twice} (the static tool).
 */
public final class AsyncProbe {

    private AsyncProbe() {
    }

    public static void main(String[] args) throws Exception {
        AsyncProbeTools tools = new AsyncProbeTools();
        String order = args[1];
        long amount = Long.parseLong(args[2]);
        switch (args[0]) {
            case "once" -> outcome("once", () -> tools.charge(order, amount));
            case "twice" -> {
                outcome("first", () -> tools.charge(order, amount));
                outcome("second", () -> tools.charge(order, amount));
            }
            case "static-twice" -> {
                AsyncProbeHooks.next(Mode.PENDING_AFTER_EFFECT);
                CompletableFuture<String> first = AsyncProbeTools.staticCharge(order, amount);
                CompletableFuture<String> downstream = AsyncProbeHooks.awaitStarted();
                print("BODY_THREAD " + AsyncProbeHooks.bodyThread);
                // Attached while pending, the dependent runs on the thread that completes the returned stage.
                CompletableFuture<String> completedOn = first.thenApply(v -> Thread.currentThread().getName());
                downstream.complete("static " + order + " " + amount + " by pid " + ProcessHandle.current().pid()
                        + " on " + Thread.currentThread().getName());
                print("FIRST_COMPLETED_ON " + completedOn.get(60, TimeUnit.SECONDS));
                outcome("first", () -> first);
                outcome("second", () -> AsyncProbeTools.staticCharge(order, amount));
            }
            case "concurrent" -> {
                AsyncProbeHooks.next(Mode.PENDING_AFTER_EFFECT);
                CompletableFuture<String> first = tools.charge(order, amount);
                CompletableFuture<String> downstream = AsyncProbeHooks.awaitStarted();
                // The first call's value is pending: the second meets the key in progress.
                outcome("second", () -> tools.charge(order, amount));
                downstream.complete("charge " + order + " " + amount + " by pid " + ProcessHandle.current().pid());
                outcome("first", () -> first);
            }
            case "nested" -> {
                AsyncProbeHooks.next(Mode.PENDING_AFTER_EFFECT);
                AsyncProbeHooks.nestOnce();
                CompletableFuture<String> first = tools.charge(order, amount);
                CompletableFuture<String> downstream = AsyncProbeHooks.awaitStarted();
                CompletableFuture<String> nested = AsyncProbeHooks.awaitNested();
                // The outer call's value is pending: the nested call of its key meets it in progress.
                outcome("nested", () -> nested);
                downstream.complete("charge " + order + " " + amount + " by pid " + ProcessHandle.current().pid());
                outcome("first", () -> first);
            }
            case "cancel-before", "cancel-after" -> {
                AsyncProbeHooks.next(args[0].equals("cancel-before") ? Mode.PENDING_BEFORE_EFFECT
                        : Mode.PENDING_AFTER_EFFECT);
                CompletableFuture<String> first = tools.charge(order, amount);
                CompletableFuture<String> downstream = AsyncProbeHooks.awaitStarted();
                print("OUTCOME cancel RESULT " + first.cancel(true));
                // The runtime cancels the body's stage once the body returned it: wait for that (with a deadline).
                downstream.exceptionally(e -> null).get(60, TimeUnit.SECONDS);
                print("DOWNSTREAM_CANCELLED " + downstream.isCancelled());
                retryWhileInProgress(() -> tools.charge(order, amount));
            }
            case "halt" -> {
                AsyncProbeHooks.next(Mode.PENDING_AFTER_EFFECT);
                tools.charge(order, amount);
                AsyncProbeHooks.awaitStarted();
                print("EFFECT_COMMITTED halting");
                Runtime.getRuntime().halt(ProbeHooks.HALTED);
            }
            case "mono-retry" -> {
                AsyncProbeHooks.next(Mode.REFUSED);
                // One Mono, subscribed again by retryWhen: each subscription is a call of the same key.
                outcome("retried", () -> tools.monoCharge(order, amount).retryWhen(Retry.max(2)).toFuture());
                outcome("again", () -> tools.monoCharge(order, amount).toFuture());
            }
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
        print("BODY_RUNS " + AsyncProbeHooks.RUNS.get());
    }

    /** Calls again (a poll with a deadline) until the cancelled call's outcome is recorded. */
    private static void retryWhileInProgress(Supplier<? extends CompletionStage<String>> call) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                String value = call.get().toCompletableFuture().join();
                print("OUTCOME retry RESULT " + value);
                return;
            } catch (CompletionException e) {
                Throwable cause = e.getCause();
                boolean inProgress = cause.getClass().getSimpleName().equals("OperationInProgressException");
                if (!inProgress || System.nanoTime() > deadline) {
                    thrown("retry", cause);
                    return;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }
    }

    /** Calls and prints the outcome; a stage still pending after 60 s is an outcome too (TimeoutException). */
    private static void outcome(String label, Supplier<? extends CompletionStage<String>> call) {
        try {
            print("OUTCOME " + label + " RESULT " + call.get().toCompletableFuture().get(60, TimeUnit.SECONDS));
        } catch (ExecutionException e) {
            thrown(label, e.getCause());
        } catch (RuntimeException | TimeoutException e) {
            thrown(label, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            thrown(label, e);
        }
    }

    private static void thrown(String label, Throwable e) {
        String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
        print("OUTCOME " + label + " THROWN " + e.getClass().getName() + " " + message);
    }

    private static synchronized void print(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
