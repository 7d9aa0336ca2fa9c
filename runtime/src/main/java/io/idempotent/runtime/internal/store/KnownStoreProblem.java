package io.idempotent.runtime.internal.store;

import java.sql.SQLNonTransientConnectionException;

/**
 * A connection refused by the runtime itself, or a driver's refusal that the runtime has
 * recognised, with what is wrong and what to do already said (the embedded store's secret does
 * not open its file, the file is held by another process, it was deleted under this JVM).
 * Thrown by the data sources beneath a store; {@link SqlStates#classify} makes it a configuration
 * error with this text. The text names files and settings, never a password or SQL.
 */
public final class KnownStoreProblem extends SQLNonTransientConnectionException {

    private static final long serialVersionUID = 1L;

    private final String code;
    private final String advice;

    /**
     * @param problem what is wrong, as a sentence without a final full stop
     * @param code the error behind it as a message names it ("H2 error 28000"), or null
     * @param advice what to do
     * @param cause the driver's exception, or null
     */
    public KnownStoreProblem(String problem, String code, String advice, Throwable cause) {
        super(problem, "08004", cause);
        this.code = code;
        this.advice = advice;
    }

    /** What is wrong. */
    public String problem() {
        return getMessage();
    }

    /** The error behind it as a message names it, or null. */
    public String code() {
        return code;
    }

    /** What to do. */
    public String advice() {
        return advice;
    }
}
