package io.idempotent.cli;

/** A request the command refuses; nothing was changed. Exits with {@link ExitCode#REFUSED}. */
final class RefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    RefusedException(String message) {
        super(message);
    }

    RefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
