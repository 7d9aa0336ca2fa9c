package io.idempotent.runtime;

/**
 * The store cannot take a value of this call, now or ever: it is longer than its column (a tool
 * name, an operation key, a downstream request id, an operator's name), or the database refused
 * it with a data or integrity error (SQLState class 22 or 23, such as a constraint the
 * application's database adds). Not retryable: the same call gets the same answer until the
 * value, the tool or the table changes. When raised before the claim, nothing was claimed and
 * the body did not run.
 */
public class ValueRejectedException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; {@code happened} says what happened and what to do. */
    public ValueRejectedException(String tool, String operationKey, String happened) {
        this(tool, operationKey, happened, null, null);
    }

    /** Creates the exception with its own advice (what to do) and cause. */
    public ValueRejectedException(String tool, String operationKey, String happened, String advice, Throwable cause) {
        super(tool, operationKey, happened, advice, false, cause);
    }
}
