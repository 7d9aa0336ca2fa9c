package io.idempotent.runtime;

/**
 * An operator denied this operation: the body did not run and never will under this key. Not
 * retryable: every repeat of the call is answered the same. The attempt log names who denied it
 * and why ({@code idem show}).
 */
public class ApprovalDeniedException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** What to do, unless the thrower says more precisely. */
    static final String ADVICE = "Do not repeat the call: a person decided against it. A new decision needs a new"
            + " operation key and a new approval";

    /** Creates the exception; {@code happened} says what happened, the advice is the default one. */
    public ApprovalDeniedException(String tool, String operationKey, String happened) {
        super(tool, operationKey, happened, ADVICE, false, null);
    }
}
