package io.idempotent.runtime.internal;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.internal.store.AttemptRow;
import io.idempotent.runtime.internal.store.StoredOperation;
import java.lang.System.Logger.Level;
import java.util.function.BooleanSupplier;

/**
 * The attempt log's entries that no transition of the operation writes: the answer a call got
 * without running the body, and the end of an attempt that lost its lease. Bookkeeping: the
 * operation's row already says what happened, so a failure to write one is logged and never
 * changes what the caller gets, except after the runtime was closed, when an answer that cannot
 * reach the log is refused instead.
 */
final class AttemptLogEntries {

    /**
     * The logger of the engine's warnings, whichever room writes them: the name operators'
     * logging settings have named since before the engine was split into rooms.
     */
    static final String ENGINE_LOGGER = "io.idempotent.runtime.internal.Engine";

    private static final System.Logger LOG = System.getLogger(ENGINE_LOGGER);

    /** Whether the engine was closed: its stores, and their answer logs, may be gone. */
    private final BooleanSupplier closed;

    /** Entries of an engine that tells whether it was closed through {@code closed}. */
    AttemptLogEntries(BooleanSupplier closed) {
        this.closed = closed;
    }

    /**
     * Logs what a call was answered without running the body. Bookkeeping: a failure is logged
     * and the caller still gets the answer (a stored result, or the reason it gets none).
     */
    void answer(Call call, StoredOperation op, AttemptOutcome outcome, String detail) {
        try {
            call.store().logAttempt(new AttemptRow(call.attemptId(), call.key(), call.policy().name(), outcome, 0,
                    call.payloadHash(), op.downstreamId(), detail, op.readAt()));
        } catch (StoreUnavailableException | StoreConfigurationException e) {
            if (closed.getAsBoolean()) {
                // The call outlived close()'s wait and its store is closed: an answer given now
                // would be missing from the attempt log, so the call gets none.
                StoreConfigurationException refused = closedRefusal(call.policy().name(), call.key());
                refused.addSuppressed(e);
                throw refused;
            }
            bookkeepingFailed(call.policy().name(), call.key(), "the attempt log's " + outcome + " entry", e);
        }
    }

    /**
     * Ends the attempt in the attempt log where no transition of the operation did (a lost
     * lease). Bookkeeping: the operation's row already says what happened, so a failure here is
     * logged and never changes what the caller gets.
     */
    static void endAttempt(AttemptContext attempt, AttemptOutcome outcome, String detail) {
        String tool = attempt.policy().name();
        try {
            attempt.store().endAttempt(tool, attempt.key(), attempt.attemptId(), outcome, attempt.downstreamId(),
                    detail);
        } catch (StoreUnavailableException | StoreConfigurationException e) {
            bookkeepingFailed(tool, attempt.key(), "the attempt log's " + outcome + " entry", e);
        }
    }

    private static void bookkeepingFailed(String tool, String key, String what, IdempotencyException e) {
        LOG.log(Level.WARNING, () -> "tool " + tool + ", key " + key + ": " + what + " could not be written ("
                + e.happened() + "); the operation's own record is unaffected");
    }

    static StoreConfigurationException closedRefusal(String tool, String key) {
        return new StoreConfigurationException(tool, key, "this IdempotentRuntime was closed; the call is refused"
                + " and the body did not run", "Build a new runtime (and IdempotentRuntime.setGlobal it, if the"
                + " agent uses it)", null);
    }
}
