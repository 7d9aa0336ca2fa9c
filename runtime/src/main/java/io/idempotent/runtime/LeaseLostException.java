package io.idempotent.runtime;

/**
 * This attempt lost its lease (it expired, or another attempt took the operation over), so it may neither pass the effect boundary nor store its outcome. Retryable: a repeat is answered by the operation's real state (replay, in progress or reconciliation).
 */
public class LeaseLostException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** What to do, unless the thrower says more precisely. */
    static final String ADVICE = "A repeat with the same key is answered by the operation's current state; Operations.find "
            + "shows its attempt log";

    /** Creates the exception; {@code happened} says what happened, the advice is the default one. */
    public LeaseLostException(String tool, String operationKey, String happened) {
        this(tool, operationKey, happened, ADVICE, null);
    }

    /** Creates the exception with its cause. */
    public LeaseLostException(String tool, String operationKey, String happened, Throwable cause) {
        this(tool, operationKey, happened, ADVICE, cause);
    }

    /** Creates the exception with its own advice (what to do) and cause. */
    public LeaseLostException(String tool, String operationKey, String happened, String advice, Throwable cause) {
        super(tool, operationKey, happened, advice, true, cause);
    }
}
