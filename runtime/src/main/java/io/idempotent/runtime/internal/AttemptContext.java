package io.idempotent.runtime.internal;

import io.idempotent.runtime.LeaseLostException;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.store.OperationStore;

/** The attempt that owns an operation's lease while its body runs. */
final class AttemptContext implements OperationContext {

    private final OperationStore store;
    private final ToolPolicy policy;
    private final String key;
    private final String attemptId;
    private final int attempt;
    private final long leaseToken;
    private final String payloadHash;
    private volatile boolean leaseLost;
    private volatile boolean effectMarked;
    private volatile String downstreamId;

    AttemptContext(OperationStore store, ToolPolicy policy, String key, String attemptId, int attempt, long leaseToken,
            String payloadHash) {
        this.store = store;
        this.policy = policy;
        this.key = key;
        this.attemptId = attemptId;
        this.attempt = attempt;
        this.leaseToken = leaseToken;
        this.payloadHash = payloadHash;
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
    public void effectStarting(String downstreamRequestId) {
        if (leaseLost || !store.markEffectStarting(policy.name(), key, leaseToken, downstreamRequestId).applied()) {
            leaseLost = true;
            throw new LeaseLostException(policy.name(), key, "tool " + policy.name() + ": attempt " + attempt
                    + " of " + key + " no longer owns its lease (it expired or another attempt took over), so it"
                    + " must not start the effect");
        }
        effectMarked = true;
        downstreamId = downstreamRequestId;
    }

    ToolPolicy policy() {
        return policy;
    }

    OperationStore store() {
        return store;
    }

    long leaseToken() {
        return leaseToken;
    }

    String payloadHash() {
        return payloadHash;
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
}
