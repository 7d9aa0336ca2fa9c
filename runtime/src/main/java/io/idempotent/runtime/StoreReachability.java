package io.idempotent.runtime;

import io.idempotent.runtime.internal.RuntimeAccess;
import io.idempotent.runtime.internal.store.OperationStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether a runtime's operation stores answer now: the store half of a readiness check (Spring
 * Boot's {@code IdempotentHealthIndicator}, the MicroProfile {@code IdempotentReadinessCheck}).
 *
 * <p>Each store is asked for one operation by its primary key, a key no tool uses, as a tool
 * call's own lookups are: the connection, the schema (created or validated as the store's schema
 * mode says) and the table are all exercised, and nothing is written. Each read runs on a daemon
 * thread of its own and the caller waits at most the bound, so a health endpoint answers in time
 * even when a store is silent (its connection and socket timeouts can be many seconds). While a
 * store's earlier read has not returned, no second one is started: the check waits, within its
 * bound, for the read under way, so a silent store never collects threads.
 */
public final class StoreReachability {

    /** The tool name of the probe's lookup: not a valid tool name, so no operation has it. */
    static final String PROBE_TOOL = "io.idempotent/readiness";
    /** The operation key of the probe's lookup. */
    static final String PROBE_KEY = "readiness-probe";

    /** The reads still running, per store, so a silent store is asked once at a time. */
    private static final Map<Object, CompletableFuture<?>> RUNNING = new ConcurrentHashMap<>();

    private StoreReachability() {
    }

    /**
     * Asks each of {@code runtime}'s stores for one operation, in parallel, and waits at most
     * {@code bound} in all.
     *
     * @param runtime the runtime whose stores are checked (the application's bean, or
     *     {@link IdempotentRuntime#global()})
     * @param bound how long the caller waits for the stores' answers
     * @return one check per configured store, in the order of their configuration
     */
    public static List<StoreCheck> check(IdempotentRuntime runtime, Duration bound) {
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(bound, "bound");
        if (bound.isNegative() || bound.isZero()) {
            throw new IllegalArgumentException("bound must be positive, was " + bound);
        }
        var stores = RuntimeAccess.engine(runtime).stores();
        List<String> names = new ArrayList<>(stores.names());
        List<CompletableFuture<?>> reads = new ArrayList<>();
        for (String name : names) {
            reads.add(read(stores.get(name, null)));
        }
        long deadline = System.nanoTime() + bound.toNanos();
        List<StoreCheck> checks = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            checks.add(outcome(names.get(i), reads.get(i), deadline, bound));
        }
        return checks;
    }

    /** The running read of {@code store}, or a new one when none runs. */
    private static CompletableFuture<?> read(OperationStore store) {
        CompletableFuture<Object> mine = new CompletableFuture<>();
        CompletableFuture<?> running = RUNNING.putIfAbsent(store, mine);
        if (running != null) {
            return running;
        }
        Thread reader = new Thread(() -> {
            try {
                mine.complete(store.find(PROBE_TOOL, PROBE_KEY));
            } catch (Throwable e) {
                mine.completeExceptionally(e);
            } finally {
                RUNNING.remove(store, mine);
            }
        }, "idempotent-readiness");
        reader.setDaemon(true);
        reader.start();
        return mine;
    }

    private static StoreCheck outcome(String name, CompletableFuture<?> read, long deadline, Duration bound) {
        try {
            read.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return new StoreCheck(name, true, "");
        } catch (TimeoutException e) {
            return new StoreCheck(name, false, "store \"" + name + "\" did not answer a read within " + bound
                    + "; see its store.connect.timeout and store.socket.timeout, and the database's own state");
        } catch (ExecutionException e) {
            return new StoreCheck(name, false, "store \"" + name + "\" refused a read: " + describe(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new StoreCheck(name, false, "store \"" + name + "\" was not checked: the check was interrupted");
        }
    }

    /**
     * The runtime's own exceptions say what happened without payloads (built for operators; their
     * advice is a tool caller's, so left out); anything else is named by its type only, since its
     * message is not ours.
     */
    private static String describe(Throwable failure) {
        if (failure instanceof IdempotencyException known) {
            return known.happened();
        }
        return failure.getClass().getName();
    }
}
