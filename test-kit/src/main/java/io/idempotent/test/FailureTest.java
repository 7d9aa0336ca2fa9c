package io.idempotent.test;

/** The four failure tests of the release gate's test obligation. */
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
    FAILURE_AT_THE_EXTERNAL_CALL("4 failure at the external call");

    private final String label;

    FailureTest(String label) {
        this.label = label;
    }

    /** The test in the words of the report. */
    public String label() {
        return label;
    }
}
