package io.idempotent.runtime.internal.store;

/**
 * What a failure of the store says of a claim: the statement that failed was not a claim, or it
 * was and nothing was claimed, or it was and the claim may have been recorded. It decides the
 * words a failure's message ends with and, for a claim that may have been recorded, its advice
 * ({@link StoreFailures#failure(String, java.sql.SQLException, ClaimFate)}), and it is what
 * {@link ClaimResult#mayHaveBeenRecorded} reads back from a message. A type of its own, rather
 * than the sentinel strings that the store's failures once passed (an empty string, or the
 * words themselves), so that a caller cannot pass words the classification does not know.
 */
enum ClaimFate {

    /** The statement that failed was not a claim: the message says nothing of one. */
    NOT_A_CLAIM(""),

    /** A claim that failed before any statement was sent, or whose store cannot answer again. */
    NOTHING_CLAIMED("; nothing was claimed"),

    /** A claim whose statement failed when the store may answer again: it may have been recorded. */
    MAY_HAVE_CLAIMED("; the claim may have been recorded before the store failed");

    private final String said;

    ClaimFate(String said) {
        this.said = said;
    }

    /** What a failure's message says of the claim, appended to what happened ("" when not a claim). */
    String said() {
        return said;
    }
}
