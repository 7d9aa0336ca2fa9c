package io.idempotent.runtime;

/**
 * A result cannot be replayed: the stored result of a completed operation can no longer be read
 * into the method's return type (the class changed between deploys), or the result a body just
 * returned cannot be stored and read back (a cyclic object, a getter that throws, an interface
 * without type information, a class without a creator), in which case the operation awaits
 * reconciliation. Not retryable: the body is never re-run, because its effect did (or may have)
 * happen(ed). Fix the type, then settle the record ({@link Operations}).
 */
public class ResultNotReplayableException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** What to do, unless the thrower says more precisely. */
    static final String ADVICE = "The operation did happen, so the body is not run again: make the return type read the "
            + "stored result again, or settle the record by hand (Operations.find shows it)";

    /** Creates the exception; {@code happened} says what happened, the advice is the default one. */
    public ResultNotReplayableException(String tool, String operationKey, String happened) {
        this(tool, operationKey, happened, ADVICE, null);
    }

    /** Creates the exception with its cause. */
    public ResultNotReplayableException(String tool, String operationKey, String happened, Throwable cause) {
        this(tool, operationKey, happened, ADVICE, cause);
    }

    /** Creates the exception with its own advice (what to do) and cause. */
    public ResultNotReplayableException(String tool, String operationKey, String happened, String advice, Throwable cause) {
        super(tool, operationKey, happened, advice, false, cause);
    }
}
