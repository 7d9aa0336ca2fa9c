package io.idempotent.cli;

/**
 * An option value the command refuses before it touches the store (a negative {@code --limit}, a
 * password inside {@code --store-url}). Exits with {@link ExitCode#USAGE}; nothing was changed.
 */
final class UsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
