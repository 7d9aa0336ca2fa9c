package io.idempotent.runtime.internal;

import io.idempotent.runtime.LeaseLostException;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.internal.store.OutboxMessageDraft;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/** The attempt that owns an operation's lease while its body runs. */
final class AttemptContext implements OperationContext {

    private final OperationStore store;
    private final ToolPolicy policy;
    private final String key;
    private final String attemptId;
    private final int attempt;
    private final long leaseToken;
    private final String payloadHash;
    private final String payloadJson;
    private final java.lang.reflect.Type resultType;
    /** {@link System#nanoTime()} when the claim that made this attempt was sent. */
    private final long claimSentAt;
    private final AtomicBoolean beating = new AtomicBoolean();
    private volatile boolean leaseLost;
    private volatile boolean effectMarked;
    private volatile String downstreamId;
    /** The messages the body sent, in order: the completion writes them to the outbox. */
    private final java.util.List<OutboxMessageDraft> messages = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** {@link System#nanoTime()} when the last write that renewed the lease was sent. */
    private volatile long renewedAt;
    /** The transactional call's connection for the body, or null for a tool that is not transactional. */
    private volatile java.sql.Connection connection;

    AttemptContext(OperationStore store, ToolPolicy policy, String key, String attemptId, int attempt, long leaseToken,
            String payloadHash, String payloadJson, java.lang.reflect.Type resultType, long claimSentAt) {
        this.store = store;
        this.policy = policy;
        this.key = key;
        this.attemptId = attemptId;
        this.attempt = attempt;
        this.leaseToken = leaseToken;
        this.payloadHash = payloadHash;
        this.payloadJson = payloadJson;
        this.resultType = resultType;
        this.claimSentAt = claimSentAt;
        this.renewedAt = claimSentAt;
    }

    /** The type a replay reads the stored result into ({@code void.class} for none). */
    java.lang.reflect.Type resultType() {
        return resultType;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public String tool() {
        return policy.name();
    }

    @Override
    public String attemptId() {
        return attemptId;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public long leaseToken() {
        return leaseToken;
    }

    @Override
    public Duration leaseRemaining() {
        if (leaseLost) {
            return Duration.ZERO;
        }
        // The database set lease_until to its own now + lease when it executed the write, which
        // was no earlier than the moment the write was sent: counting from then never overstates.
        Duration left = policy.lease().minusNanos(System.nanoTime() - renewedAt);
        return left.isNegative() ? Duration.ZERO : left;
    }

    @Override
    public void effectStarting(String downstreamRequestId) {
        DownstreamIds.requireRecordable(policy.name(), key, downstreamRequestId);
        long sent = System.nanoTime();
        // A mark that finds no record at all (not one taken over) holds the operation again.
        if (leaseLost || !store.markEffectStarting(policy.name(), key, leaseToken, attemptId, downstreamRequestId,
                policy.lease()).applied() && !LostRecords.holdAgain(this, true, downstreamRequestId)) {
            leaseLost = true;
            throw new LeaseLostException(policy.name(), key, "attempt " + attempt + " no longer owns its lease (it"
                    + " expired or another attempt took over), so it must not start the effect");
        }
        renewedAt = sent;
        effectMarked = true;
        downstreamId = downstreamRequestId;
    }

    @Override
    public java.sql.Connection connection() {
        java.sql.Connection c = connection;
        if (c == null) {
            throw new IllegalStateException("tool " + policy.name() + " is not transactional, so its body has no"
                    + " connection of the store: declare transactional = true on @IdempotentTool if its effect is a"
                    + " write in the store's database (see docs/transactional-tools.md)");
        }
        return c;
    }

    void inTransaction(TransactionalCall call) {
        this.connection = call.forTheBody();
    }

    @Override
    public void send(String destination, String message) {
        OutboxDestinations.requireValid(policy.name(), key, policy.outbox(), destination, message);
        messages.add(new OutboxMessageDraft(destination, message));
    }

    /** The messages the body sent so far, in order. */
    java.util.List<OutboxMessageDraft> messages() {
        return java.util.List.copyOf(messages);
    }

    ToolPolicy policy() {
        return policy;
    }

    OperationStore store() {
        return store;
    }

    String payloadHash() {
        return payloadHash;
    }

    /** The canonical payload, which a record written again ({@link LostRecords}) keeps. */
    String payloadJson() {
        return payloadJson;
    }

    /** How long ago (this JVM's monotonic clock) the claim that made this attempt was sent. */
    Duration sinceClaim() {
        return Duration.ofNanos(System.nanoTime() - claimSentAt);
    }

    boolean effectMarked() {
        return effectMarked;
    }

    String downstreamId() {
        return downstreamId;
    }

    void leaseLost() {
        leaseLost = true;
    }

    boolean isLeaseLost() {
        return leaseLost;
    }

    /** {@link System#nanoTime()} at (or before) the send of the last write that renewed the lease. */
    long renewedAt() {
        return renewedAt;
    }

    void leaseRenewed(long sentAt) {
        renewedAt = sentAt;
    }

    /** Claims the right to run the next beat; false while the previous one still runs. */
    boolean startBeat() {
        return beating.compareAndSet(false, true);
    }

    void endBeat() {
        beating.set(false);
    }
}
