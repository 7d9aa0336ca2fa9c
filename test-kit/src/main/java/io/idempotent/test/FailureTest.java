package io.idempotent.test;

/**
 * The four failure tests of the release gate's test obligation, and the three tests of the
 * approval gate that the kit adds for a tool declared {@code approval = Approval.REQUIRED}. On such
 * a tool each of the four tests first has its call's approval requested and granted, then runs
 * as on any tool.
 */
public enum FailureTest {
    /** A duplicate after completion replays the stored result and does not call the downstream again. */
    DUPLICATE_AFTER_COMPLETION("1 duplicate after completion"),
    /** The same key with a changed payload is rejected and never executed. */
    CHANGED_PAYLOAD("2 same key, changed payload"),
    /** Concurrent callers racing on one key are serialised by the store: one execution. */
    CONCURRENT_CALLERS("3 concurrent callers"),
    /**
     * A failure at the external call: before the request left, or after the downstream committed
     * (reply lost, worker dead, store down): reconciled, or re-sent under the same key to a
     * downstream that deduplicates it, and never a second effect.
     */
    FAILURE_AT_THE_EXTERNAL_CALL("4 failure at the external call"),
    /**
     * Approval tools only: a call before any decision is answered {@code ApprovalPendingException}
     * (retryable) without running the body, a repeat is answered the same, and the request waits in
     * the approval queue once.
     */
    APPROVAL_PENDING("5 approval pending", true),
    /**
     * Approval tools only: after a grant, a call with changed arguments under the same key is a
     * payload conflict that runs nothing and does not use the grant; the approved call then runs once.
     */
    APPROVED_THEN_CHANGED_PAYLOAD("6 approved, changed payload", true),
    /**
     * Approval tools only: after a denial, every call is answered {@code ApprovalDeniedException}
     * (not retryable) and nothing runs.
     */
    APPROVAL_DENIED("7 approval denied", true);

    private final String label;
    private final boolean approvalOnly;

    FailureTest(String label) {
        this(label, false);
    }

    FailureTest(String label, boolean approvalOnly) {
        this.label = label;
        this.approvalOnly = approvalOnly;
    }

    /** Whether the test is one of the approval gate's, run only on a tool that needs approval. */
    public boolean approvalOnly() {
        return approvalOnly;
    }

    /** The test in the words of the report. */
    public String label() {
        return label;
    }
}
