package io.idempotent.runtime.internal;

import static io.idempotent.runtime.internal.StoreCalls.withKey;

import io.idempotent.annotations.EffectBoundary;
import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.store.StoredOperation;
import io.idempotent.runtime.internal.store.Takeover;
import io.idempotent.runtime.internal.store.Transition;
import java.time.Duration;

/**
 * The start of an attempt that owns the key: a fresh claim's, or a take-over of an existing row by
 * one conditional statement on the row as it was read (a lost race changes nothing, and the call
 * reads the row again). The attempt runs the body with its lease kept alive by the heartbeat, and
 * ends by {@link Completions} or {@link FailureClassification}.
 */
final class AttemptStarts {

    private final LeaseHeartbeat heartbeat;
    private final MetricsListener metrics;
    private final Completions completions;
    private final FailureClassification failures;

    /** Starts whose leases {@code heartbeat} renews, ended by {@code completions} and {@code failures}. */
    AttemptStarts(LeaseHeartbeat heartbeat, MetricsListener metrics, Completions completions,
            FailureClassification failures) {
        this.heartbeat = heartbeat;
        this.metrics = metrics;
        this.completions = completions;
        this.failures = failures;
    }

    /**
     * Takes over the row as {@code op} observed it, under the conditions given (an expired lease, an
     * effect not yet begun, a first claim within {@code createdWithin}), and starts the attempt;
     * null when the row had changed and the call must read it again.
     */
    Invocation takeOver(Call call, StoredOperation op, boolean requireExpired, boolean requireEffectNotStarted,
            Duration createdWithin) {
        ToolPolicy policy = call.policy();
        Takeover takeover = new Takeover(call.attemptId(), policy.name(), call.key(), op.status(),
                op.leaseToken(), requireExpired, requireEffectNotStarted, policy.lease(), policy.retention(),
                policy.effectBoundary() == EffectBoundary.BODY_START, createdWithin);
        long sent = System.nanoTime();
        // The store says which lease token and attempt number this attempt now holds.
        if (withKey(policy.name(), call.key(), () -> call.store().takeOver(takeover))
                instanceof Transition.Applied owned) {
            return execute(call, owned.leaseToken(), owned.attempts(), sent);
        }
        return null;
    }

    /** Starts the attempt that owns the key with {@code leaseToken}: the body runs next. */
    Invocation execute(Call call, long leaseToken, int attempt, long claimSent) {
        String tool = call.policy().name();
        AttemptContext context = new AttemptContext(call.store(), call.policy(), call.key(), call.attemptId(), attempt,
                leaseToken, call.payloadHash(), call.payloadJson(), call.resultType(), claimSent);
        // The claim or take-over wrote the attempt RUNNING on the operation's row: no follow-up
        // write stands between the claim and the body.
        metrics.executed(tool);
        CurrentAttempt.push(context);
        // A transactional call's claim is not visible before it commits: there is no lease to renew.
        return new Invocation.Execution(completions, failures, context, call.policy().transactional() ? null
                : heartbeat.start(context));
    }
}
