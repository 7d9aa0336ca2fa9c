package io.idempotent.runtime.internal;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.OperationCount;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.PendingApproval;
import io.idempotent.runtime.internal.store.ApprovalDecision;
import io.idempotent.runtime.internal.store.ApprovalRequest;
import io.idempotent.runtime.internal.store.AttemptEnd;
import io.idempotent.runtime.internal.store.AttemptRow;
import io.idempotent.runtime.internal.store.ClaimRequest;
import io.idempotent.runtime.internal.store.ClaimResult;
import io.idempotent.runtime.internal.store.JdbcOperationStore;
import io.idempotent.runtime.internal.store.LeaseRenewal;
import io.idempotent.runtime.internal.store.LostRecord;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.internal.store.StoreChangingHands;
import io.idempotent.runtime.internal.store.StoredOperation;
import io.idempotent.runtime.internal.store.Takeover;
import io.idempotent.runtime.internal.store.Transition;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * An embedded H2 store shared by several JVMs ({@code AUTO_SERVER}), whose every operation
 * answers within a bound. The JVM that serves the file may stall (a long pause, a debugger,
 * SIGSTOP, a container throttled to zero) without closing its sockets, and H2's client has no
 * timeout of its own on the replies it waits for: neither on a statement nor on the check that
 * a JVM opening the file makes of the server its lock file names. So each operation runs on a
 * worker thread of this store while the caller waits: up to {@code store.connect.timeout} plus
 * 1 s (the pool's own wait) until it has a connection, then up to {@code store.socket.timeout}
 * from the moment it got one. When that runs out the caller gets a retryable
 * {@code StoreUnavailableException} (naming the JVM that holds the file, when another does);
 * the worker stays with the silent server and ends, its result discarded, when the server
 * answers again or gives the connection up. A claim whose statement may have been sent says
 * that the claim may have been recorded; the stored state stays the one truth, and every later
 * write is fenced as always. The workers are bounded ({@link #MAX_WORKERS_PER_CONNECTION} per
 * pooled connection, plus a few): when all wait on a silent store, a call is refused at once.
 */
final class BoundedOperationStore implements OperationStore {

    /** Workers per connection of the pool: those holding one, and those waiting for one. */
    static final int MAX_WORKERS_PER_CONNECTION = 4;

    /**
     * How long an operation waits while another one of this store is still waiting past its own
     * bound (the store is stalled): long enough for a store that answers, short enough that the
     * final write's three tries and every other call answer at once instead of one bound each.
     */
    static final Duration STALLED_WAIT = Duration.ofMillis(250);

    /** The operation that the current worker thread runs, which its connections mark. */
    private static final ThreadLocal<Task<?>> CURRENT = new ThreadLocal<>();

    private final JdbcOperationStore target;
    private final long connectNanos;
    private final long socketNanos;
    private final Duration connectTimeout;
    private final Duration socketTimeout;
    private final H2FileCheck check;
    private final ThreadPoolExecutor workers;
    /** Operations given up on that still wait on the store: while there are any, the store is stalled. */
    private final AtomicInteger stuck = new AtomicInteger();

    /**
     * @param check who holds the file, for the message of an operation that did not answer
     * @param poolSize the connections of the store's pool
     */
    BoundedOperationStore(JdbcOperationStore target, String name, Duration connectTimeout, Duration socketTimeout,
            H2FileCheck check, int poolSize) {
        this.target = target;
        this.connectTimeout = connectTimeout;
        this.socketTimeout = socketTimeout;
        this.connectNanos = connectTimeout.plusSeconds(1).toNanos();
        this.socketNanos = socketTimeout.toNanos();
        this.check = check;
        this.workers = new ThreadPoolExecutor(0, poolSize * MAX_WORKERS_PER_CONNECTION + 8, 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), DaemonThreads.named("idempotent-store-" + name));
    }

    /**
     * {@code dataSource} marking, on a worker of a bounded store, the moment its operation got a
     * connection: from then on the operation waits for replies, bounded by the socket timeout.
     */
    static DataSource marking(DataSource dataSource) {
        return new ConnectionDecoratingDataSource(dataSource) {
            @Override
            protected Connection decorate(Connection connection) throws SQLException {
                Task<?> task = CURRENT.get();
                if (task != null && !task.connected()) {
                    // Its caller was told that nothing was claimed: nothing may be sent now.
                    connection.close();
                    throw new SQLTimeoutException("the operation was given up before it got a connection");
                }
                return connection;
            }
        };
    }

    private static final int WAITING = 0;
    private static final int CONNECTED = 1;
    private static final int DONE = 2;
    private static final int GIVEN_UP_WAITING = 3;
    private static final int GIVEN_UP_CONNECTED = 4;

    /** One operation on a worker. */
    private final class Task<T> implements Runnable {
        private final Supplier<T> work;
        private final long startedAt = System.nanoTime();
        private final CompletableFuture<T> result = new CompletableFuture<>();
        /** When the operation last got a connection, or 0 while it has none yet. */
        private volatile long connectedAt;
        /** {@link #WAITING}, {@link #CONNECTED}, {@link #DONE}, or given up by its caller while it still ran. */
        private final AtomicInteger state = new AtomicInteger(WAITING);

        private Task(Supplier<T> work) {
            this.work = work;
        }

        @Override
        public void run() {
            CURRENT.set(this);
            try {
                result.complete(work.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            } finally {
                CURRENT.remove();
                if (!state.compareAndSet(WAITING, DONE) && !state.compareAndSet(CONNECTED, DONE)) {
                    stuck.decrementAndGet(); // the store answered again
                }
            }
        }

        /**
         * Until when the caller waits: the connect bound without a connection, the socket bound
         * with one; while the store is stalled, {@link #STALLED_WAIT} at most.
         */
        private long deadline() {
            long connected = connectedAt;
            long bound = connected == 0 ? startedAt + connectNanos : connected + socketNanos;
            return stuck.get() > 0 ? Math.min(bound, startedAt + STALLED_WAIT.toNanos()) : bound;
        }

        /**
         * Marks that the operation got a connection and may send statements; false when its caller
         * gave it up before, and it must send none.
         */
        private boolean connected() {
            connectedAt = System.nanoTime();
            return state.compareAndSet(WAITING, CONNECTED) || state.get() == CONNECTED;
        }

        /**
         * Gives the operation up: {@link #GIVEN_UP_WAITING} when it had no connection yet (it will
         * send nothing), {@link #GIVEN_UP_CONNECTED} when it may have sent a statement, or
         * {@link #DONE} when it ended meanwhile (its result is there to take).
         */
        private int giveUp() {
            if (state.compareAndSet(WAITING, GIVEN_UP_WAITING)) {
                stuck.incrementAndGet();
                return GIVEN_UP_WAITING;
            }
            if (state.compareAndSet(CONNECTED, GIVEN_UP_CONNECTED)) {
                stuck.incrementAndGet();
                return GIVEN_UP_CONNECTED;
            }
            return DONE;
        }
    }

    /** Runs {@code work} on a worker, waiting for it within the bounds; {@code what} names it as a failure does. */
    private <T> T bounded(String what, boolean claim, Supplier<T> work) {
        Task<T> task = new Task<>(work);
        try {
            workers.execute(task);
        } catch (RejectedExecutionException e) {
            throw target.timedOut(what, silent("every one of the store's " + workers.getMaximumPoolSize()
                    + " workers is waiting on it already"), claim, false);
        }
        while (true) {
            long deadline = task.deadline();
            long wait = deadline - System.nanoTime();
            try {
                if (wait > 0) {
                    return task.result.get(wait, TimeUnit.NANOSECONDS);
                }
                if (task.deadline() != deadline) {
                    continue; // it got a connection meanwhile: the socket bound runs from then
                }
            } catch (TimeoutException e) {
                continue;
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (cause instanceof Error error) {
                    throw error;
                }
                throw new IllegalStateException(cause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            boolean stalled = stuck.get() > 0;
            int given = task.giveUp();
            if (given == DONE) {
                continue; // it ended just now
            }
            boolean connected = given == GIVEN_UP_CONNECTED;
            throw target.timedOut(what, silent(stalled ? "another operation of this JVM has waited on it past its"
                    + " bound and still waits" : connected ? "no reply within store.socket.timeout (" + socketTimeout
                    + ")" : "no connection within store.connect.timeout (" + connectTimeout + ") and 1 s"), claim,
                    connected);
        }
    }

    /** Why an operation got no answer, naming the JVM that holds the file when another one does. */
    private SQLException silent(String why) {
        SQLTimeoutException timeout = new SQLTimeoutException(why);
        Long holder = check.holder();
        if (check.heldElsewhere(holder)) {
            return check.changingHands(timeout, holder, why);
        }
        return new StoreChangingHands("the embedded store gave " + why, null, timeout);
    }

    @Override
    public void ensureSchema() {
        bounded("prepare the schema of", false, () -> {
            target.ensureSchema();
            return null;
        });
    }

    @Override
    public ClaimResult claim(ClaimRequest request) {
        return bounded("claim the key in", true, () -> target.claim(request));
    }

    @Override
    public ClaimResult requestApproval(ClaimRequest request, ApprovalRequest approval) {
        return bounded("record the approval request in", true, () -> target.requestApproval(request, approval));
    }

    @Override
    public Transition decideApproval(ApprovalDecision decision) {
        return bounded("record an approval decision in", false, () -> target.decideApproval(decision));
    }

    @Override
    public Transition expireApproval(String tool, String key, long expectedToken, String attemptId) {
        return bounded("expire a grant in", false, () -> target.expireApproval(tool, key, expectedToken, attemptId));
    }

    @Override
    public List<String> expireLapsedGrants(String foundBy) {
        return bounded("record lapsed grants in", false, () -> target.expireLapsedGrants(foundBy));
    }

    @Override
    public List<PendingApproval> pendingApprovals(String tool, int offset, int limit) {
        return bounded("list the approval queue of", false, () -> target.pendingApprovals(tool, offset, limit));
    }

    @Override
    public Map<String, Long> countPendingApprovals() {
        return bounded("count the approval queue of", false, target::countPendingApprovals);
    }

    /** The target's outbox as it is: relays and operators use it from their own threads, never a caller's. */
    @Override
    public io.idempotent.runtime.internal.store.OutboxRows outbox() {
        return target.outbox();
    }

    @Override
    public Optional<StoredOperation> find(String tool, String key) {
        return bounded("read", false, () -> target.find(tool, key));
    }

    @Override
    public Transition takeOver(Takeover takeover) {
        return bounded("take over an operation in", false, () -> target.takeOver(takeover));
    }

    @Override
    public Transition expireLease(String tool, String key, long expectedToken, boolean safe, String errorJson) {
        return bounded("expire a lease in", false, () -> target.expireLease(tool, key, expectedToken, safe,
                errorJson));
    }

    @Override
    public Transition markEffectStarting(String tool, String key, long leaseToken, String attemptId,
            String downstreamId, Duration lease) {
        return bounded("mark the effect boundary in", false, () -> target.markEffectStarting(tool, key, leaseToken,
                attemptId, downstreamId, lease));
    }

    @Override
    public Transition heartbeat(String tool, String key, long leaseToken, String attemptId, Duration lease) {
        return bounded("renew a lease in", false, () -> target.heartbeat(tool, key, leaseToken, attemptId, lease));
    }

    @Override
    public Set<LeaseRenewal> renewLeases(List<LeaseRenewal> leases, Duration lease) {
        return bounded("renew leases in", false, () -> target.renewLeases(leases, lease));
    }

    @Override
    public Transition releaseClaim(String tool, String key, String attemptId, String releasedBy) {
        return bounded("release a claim in", false, () -> target.releaseClaim(tool, key, attemptId, releasedBy));
    }

    @Override
    public Transition complete(String tool, String key, long leaseToken, String attemptId, String resultJson,
            AttemptEnd end) {
        return bounded("record a result in", false, () -> target.complete(tool, key, leaseToken, attemptId,
                resultJson, end));
    }

    @Override
    public Transition fail(String tool, String key, long leaseToken, String attemptId, boolean safe,
            String errorJson, AttemptEnd end) {
        return bounded("record a failure in", false, () -> target.fail(tool, key, leaseToken, attemptId, safe,
                errorJson, end));
    }

    @Override
    public Transition recreate(LostRecord record) {
        return bounded("re-create a missing operation in", false, () -> target.recreate(record));
    }

    @Override
    public Transition settleApplied(String tool, String key, long expectedToken, String resultJson) {
        return bounded("settle an operation in", false, () -> target.settleApplied(tool, key, expectedToken,
                resultJson));
    }

    @Override
    public Transition settleNotApplied(String tool, String key, long expectedToken, String releasedBy) {
        return bounded("settle an operation in", false, () -> target.settleNotApplied(tool, key, expectedToken,
                releasedBy));
    }

    @Override
    public void logAttempt(AttemptRow row) {
        bounded("log an attempt in", false, () -> {
            target.logAttempt(row);
            return null;
        });
    }

    /** Not bounded: it only registers the listener with the attempt log's writer. */
    @Override
    public void onRefusedAnswer(java.util.function.Consumer<String> perTool) {
        target.onRefusedAnswer(perTool);
    }

    /** Not bounded: it drains what this JVM queued, as closing does, within the close timeout. */
    @Override
    public void flushAttemptLog() {
        target.flushAttemptLog();
    }

    @Override
    public void endAttempt(String tool, String key, String attemptId, AttemptOutcome outcome, String downstreamId,
            String detail) {
        bounded("log an attempt's end in", false, () -> {
            target.endAttempt(tool, key, attemptId, outcome, downstreamId, detail);
            return null;
        });
    }

    @Override
    public AttemptPage attempts(String tool, String key, Set<AttemptOutcome> outcomes, int offset, int limit) {
        return bounded("read the attempt log from", false, () -> target.attempts(tool, key, outcomes, offset,
                limit));
    }

    @Override
    public List<StoredOperation> awaitingReconciliation(String tool, Duration olderThan, int limit) {
        return bounded("read", false, () -> target.awaitingReconciliation(tool, olderThan, limit));
    }

    @Override
    public List<OperationCount> countByToolAndStatus(OperationStatus onlyStatus) {
        return bounded("count the operations in", false, () -> target.countByToolAndStatus(onlyStatus));
    }

    @Override
    public int countExpired() {
        return bounded("count expired operations in", false, target::countExpired);
    }

    @Override
    public List<StoredOperation> inProgress(int limit) {
        return bounded("read", false, () -> target.inProgress(limit));
    }

    @Override
    public int purgeExpired() {
        return bounded("purge", false, target::purgeExpired);
    }

    @Override
    public Duration closeTimeout() {
        return target.closeTimeout();
    }

    /**
     * None, on purpose: this store runs each statement on one of its own workers, so a
     * transactional call's connection, bound to the caller's thread, would never see them (the
     * claim, the body's writes and the completion would split across connections). Transactional
     * tools are refused on it at start-up ({@code ToolStores}).
     */
    @Override
    public java.util.Optional<io.idempotent.runtime.internal.store.StoreTransactions> transactions() {
        return java.util.Optional.empty();
    }

    /** Closes the store (bounded by its close timeout), then lets the workers go. */
    @Override
    public void close() {
        try {
            target.close();
        } finally {
            workers.shutdown();
        }
    }
}
