package io.idempotent.runtime;

import java.util.List;
import java.util.Map;

/**
 * The approval queue of the tools declared {@code approval = Approval.REQUIRED}: list the
 * operations that wait for a person, and grant or deny one. Obtained from
 * {@link IdempotentRuntime#approvals()}; the {@code idem approvals}, {@code idem approve} and
 * {@code idem deny} commands and the web console use it too. A workflow may grant from its own
 * channel (a chat button, an MCP elicitation): the grant names the payload hash its person saw.
 *
 * <p>A decision is bound to the operation: the tool, the key and the payload hash. A grant lets
 * the next call with that key and payload run the body once, within the tool's
 * {@code approvalValidity}; a call with changed arguments under the same key is a payload
 * conflict. A denial is final for the key. Every decision is written to the attempt log with the
 * operator and the reason. When two people decide at once, one decision is recorded and the
 * other fails with {@link IllegalStateException}.
 */
public interface Approvals {

    /**
     * Operations of the store named {@code store} that await approval, the oldest request first:
     * those never decided and those whose grant expired unused.
     *
     * @param tool only this tool's; null for every tool
     * @param offset how many to skip (not negative)
     * @param limit at most this many (1 to {@link AttemptPage#MAX_LIMIT})
     * @throws IllegalArgumentException if {@code offset} or {@code limit} is out of range
     */
    List<PendingApproval> pending(String store, String tool, int offset, int limit);

    /** How many operations await approval, per tool (tools with none are absent). */
    Map<String, Long> countPending(String store);

    /**
     * Grants {@code tool}'s operation {@code key}: the next call with the same key and payload runs
     * the body, once.
     *
     * @param payloadHash the payload hash the approver saw ({@link PendingApproval#payloadHash()})
     * @param approver who decided, for the attempt log (not blank)
     * @param reason why, for the attempt log (may be null)
     * @throws IllegalArgumentException if {@code payloadHash} is not the stored one, or the
     *     approver is blank
     * @throws IllegalStateException if the operation does not exist or does not await approval
     *     (someone decided it already)
     */
    void grant(String store, String tool, String key, String payloadHash, String approver, String reason);

    /**
     * Denies {@code tool}'s operation {@code key}: a final outcome, answered with
     * {@link ApprovalDeniedException} to every call with the key.
     *
     * @throws IllegalArgumentException if {@code payloadHash} is not the stored one, or the
     *     approver is blank
     * @throws IllegalStateException if the operation does not exist or does not await approval
     */
    void deny(String store, String tool, String key, String payloadHash, String approver, String reason);

    /** {@link #grant(String, String, String, String, String, String)} in the default store. */
    default void grant(String tool, String key, String payloadHash, String approver, String reason) {
        grant("default", tool, key, payloadHash, approver, reason);
    }

    /** {@link #deny(String, String, String, String, String, String)} in the default store. */
    default void deny(String tool, String key, String payloadHash, String approver, String reason) {
        deny("default", tool, key, payloadHash, approver, reason);
    }
}
