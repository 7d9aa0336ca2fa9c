package io.idempotent.benchmarks.inprocess;

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
import io.idempotent.runtime.internal.store.LeaseRenewal;
import io.idempotent.runtime.internal.store.LostRecord;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.internal.store.StoredOperation;
import io.idempotent.runtime.internal.store.Takeover;
import io.idempotent.runtime.internal.store.Transition;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * A store stub for measuring the runtime without a database: every key is new (the claim owns
 * lease token 1 and every write of its attempt succeeds) except the one completed operation given
 * to the constructor, which a claim finds. Keeps no rows, so millions of fresh calls need no
 * memory; counts the claims, so a benchmark can check that its calls reached the store.
 */
final class InMemoryOperationStore implements OperationStore {

    private final StoredOperation completed;
    private final LongAdder claims = new LongAdder();

    /** {@code completed}: the operation that claims of its key find. */
    InMemoryOperationStore(StoredOperation completed) {
        this.completed = completed;
    }

    /** A completed operation of {@code tool} under {@code key}, with its payload hash and stored result. */
    static StoredOperation completed(String tool, String key, String payloadHash, String payloadJson,
            String resultJson) {
        Instant now = Instant.now();
        return new StoredOperation(key, tool, OperationStatus.COMPLETED, payloadHash, payloadJson, 1, null, false,
                true, null, resultJson, null, 1, null, now, now, now.plus(Duration.ofDays(30)), "attempt-1", now);
    }

    long claims() {
        return claims.sum();
    }

    @Override
    public void ensureSchema() {
    }

    @Override
    public ClaimResult claim(ClaimRequest request) {
        claims.increment();
        if (request.key().equals(completed.key()) && request.tool().equals(completed.tool())) {
            return new ClaimResult.Existing(completed);
        }
        return new ClaimResult.Inserted(1, 1, Instant.now().plus(request.lease()));
    }

    @Override
    public Optional<StoredOperation> find(String tool, String key) {
        return key.equals(completed.key()) && tool.equals(completed.tool()) ? Optional.of(completed)
                : Optional.empty();
    }

    private static Transition applied(long leaseToken) {
        return new Transition.Applied(leaseToken, 1, null);
    }

    @Override
    public Transition takeOver(Takeover takeover) {
        return applied(takeover.expectedToken() + 1);
    }

    @Override
    public Transition expireLease(String tool, String key, long expectedToken, boolean safe, String errorJson) {
        return applied(expectedToken + 1);
    }

    @Override
    public Transition markEffectStarting(String tool, String key, long leaseToken, String attemptId,
            String downstreamId, Duration lease) {
        return applied(leaseToken);
    }

    @Override
    public Transition heartbeat(String tool, String key, long leaseToken, String attemptId, Duration lease) {
        return applied(leaseToken);
    }

    @Override
    public Transition complete(String tool, String key, long leaseToken, String attemptId, String resultJson,
            AttemptEnd end) {
        return applied(leaseToken);
    }

    @Override
    public Transition fail(String tool, String key, long leaseToken, String attemptId, boolean safe,
            String errorJson, AttemptEnd end) {
        return applied(leaseToken);
    }

    @Override
    public Set<LeaseRenewal> renewLeases(List<LeaseRenewal> leases, Duration lease) {
        return new HashSet<>(leases);
    }

    @Override
    public Transition releaseClaim(String tool, String key, String attemptId, String releasedBy) {
        return applied(1);
    }

    @Override
    public void onRefusedAnswer(java.util.function.Consumer<String> perTool) {
    }

    @Override
    public Transition recreate(LostRecord record) {
        return applied(record.leaseToken());
    }

    @Override
    public Transition settleApplied(String tool, String key, long expectedToken, String resultJson) {
        return applied(expectedToken + 1);
    }

    @Override
    public Transition settleNotApplied(String tool, String key, long expectedToken, String releasedBy) {
        return applied(expectedToken + 1);
    }

    @Override
    public void logAttempt(AttemptRow row) {
    }

    @Override
    public void flushAttemptLog() {
    }

    @Override
    public void endAttempt(String tool, String key, String attemptId, AttemptOutcome outcome, String downstreamId,
            String detail) {
    }

    @Override
    public AttemptPage attempts(String tool, String key, Set<AttemptOutcome> outcomes, int offset, int limit) {
        return new AttemptPage(List.of(), offset, 0);
    }

    @Override
    public List<StoredOperation> awaitingReconciliation(String tool, Duration olderThan, int limit) {
        return List.of();
    }

    @Override
    public List<OperationCount> countByToolAndStatus(OperationStatus onlyStatus) {
        return List.of();
    }

    @Override
    public int countExpired() {
        return 0;
    }

    @Override
    public List<StoredOperation> inProgress(int limit) {
        return List.of();
    }

    @Override
    public int purgeExpired() {
        return 0;
    }

    // The benchmarks time tools without approval: an approval tool's first call is refused here.

    @Override
    public ClaimResult requestApproval(ClaimRequest request, ApprovalRequest approval) {
        throw new UnsupportedOperationException("the in-process benchmark store has no approval gates");
    }

    @Override
    public Transition decideApproval(ApprovalDecision decision) {
        throw new UnsupportedOperationException("the in-process benchmark store has no approval gates");
    }

    @Override
    public Transition expireApproval(String tool, String key, long expectedToken, String attemptId) {
        throw new UnsupportedOperationException("the in-process benchmark store has no approval gates");
    }

    @Override
    public List<String> expireLapsedGrants(String foundBy) {
        return List.of();
    }

    @Override
    public List<PendingApproval> pendingApprovals(String tool, int offset, int limit) {
        return List.of();
    }

    @Override
    public Map<String, Long> countPendingApprovals() {
        return Map.of();
    }

    @Override
    public io.idempotent.runtime.internal.store.OutboxRows outbox() {
        throw new UnsupportedOperationException("the in-memory benchmark store has no outbox");
    }

    @Override
    public void close() {
    }
}
