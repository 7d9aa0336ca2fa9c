package io.idempotent.runtime.internal.store;

import java.sql.SQLTransientConnectionException;

/**
 * An embedded H2 store's file that another JVM holds and that does not answer now: the JVM
 * that serves it is stalled (a long garbage collection, a debugger, SIGSTOP, a container
 * throttled to zero) or the file is changing hands. H2 then says what it met on the way (its
 * lock file taken over, "The file is locked", "Lock file recently modified", H2 errors 90020 or
 * 90028), none of which says anything about the file itself. {@link SqlStates#classify} makes it
 * a retryable failure with this text, which names the holder where it can be told.
 */
public final class StoreChangingHands extends SQLTransientConnectionException {

    private static final long serialVersionUID = 1L;

    private final String code;

    /**
     * @param problem what is happening, naming the file and its holder, without a final full stop
     * @param code the error H2 raised, as a message names it ("H2 error 90020"), or null
     * @param cause the driver's exception
     */
    public StoreChangingHands(String problem, String code, Throwable cause) {
        super(problem, "08001", cause);
        this.code = code;
    }

    /** What is happening. */
    public String problem() {
        return getMessage();
    }

    /** The error H2 raised, or null. */
    public String code() {
        return code;
    }
}
