package io.idempotent.runtime.internal;

import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.ValueRejectedException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.store.ApprovalRequest;
import io.idempotent.runtime.internal.store.ClaimRequest;
import io.idempotent.runtime.internal.store.ClaimResult;
import io.idempotent.runtime.internal.store.OperationStore;
import java.time.Duration;

/**
 * A call's claim of its key: one statement that inserts the operation's row or reads the one there
 * (for a tool that needs approval, the request that queues it), and what a store failure at that
 * moment means for the caller: the body did not run, and a claim that may have been recorded
 * although its answer was lost is released once the store answers again.
 */
final class Claims {

    private final MetricsListener metrics;
    private final LostClaimReleases lostClaims;

    /** Claims that report their latency to {@code metrics} and release lost ones through {@code lostClaims}. */
    Claims(MetricsListener metrics, LostClaimReleases lostClaims) {
        this.metrics = metrics;
        this.lostClaims = lostClaims;
    }

    /**
     * Sends {@code call}'s claim ({@code request}), {@code sent} being the {@link System#nanoTime()}
     * it is sent at; its answer is a row inserted or the row that was there.
     */
    ClaimResult send(Call call, ClaimRequest request, long sent) {
        ToolPolicy policy = call.policy();
        String tool = policy.name();
        String key = call.key();
        OperationStore store = call.store();
        String attemptId = call.attemptId();
        ClaimResult claim;
        try {
            claim = policy.approvalRequired() ? store.requestApproval(request, approvalRequest(policy, key))
                    : store.claim(request);
            metrics.claimLatency(tool, Duration.ofNanos(System.nanoTime() - sent));
        } catch (StoreUnavailableException e) {
            // The store says whether the claim may have been recorded (a statement was sent) or not.
            if (!policy.approvalRequired() && ClaimResult.mayHaveBeenRecorded(e)) {
                // The body did not start: a recorded claim is released once the store answers.
                lostClaims.release(store, tool, key, attemptId, policy.lease());
            }
            throw new StoreUnavailableException(tool, key, e.happened() + ", and the body did not run",
                    e.advice(), e.getCause());
        } catch (StoreConfigurationException e) {
            throw new StoreConfigurationException(tool, key, e.happened() + ", and the body did not run",
                    e.advice(), e.getCause());
        } catch (ValueRejectedException e) {
            throw new ValueRejectedException(tool, key, e.happened() + "; nothing was claimed and the body did"
                    + " not run", e.advice(), e.getCause());
        }
        return claim;
    }

    private static ApprovalRequest approvalRequest(ToolPolicy policy, String key) {
        String step = Step.currentKey().orElse(null);
        StoreColumns.requireFits(policy.name(), key, "step key", "requested_step", step);
        return new ApprovalRequest(step, Requester.ID, policy.approvalValidity());
    }
}
