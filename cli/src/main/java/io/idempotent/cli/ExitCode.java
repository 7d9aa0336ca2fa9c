package io.idempotent.cli;

/**
 * The command line's exit codes, for scripts. Every code other than {@link #OK} means that
 * nothing was changed, except where a command's own description says otherwise.
 */
public final class ExitCode {

    /** The command did what it was asked. */
    public static final int OK = 0;
    /**
     * Refused: the operation does not exist, is not in a state that allows the change (settling a
     * completed operation, deciding an operation someone already decided), the given result does
     * not fit the tool's return type, or the given payload hash is not the stored one.
     */
    public static final int REFUSED = 1;
    /** The command line itself is wrong (unknown command or option, missing argument). */
    public static final int USAGE = 2;
    /** The store cannot be reached, is misconfigured, or its schema is missing or incomplete. */
    public static final int STORE = 3;
    /** A bug: the message says where; please report it. */
    public static final int INTERNAL = 4;

    private ExitCode() {
    }
}
