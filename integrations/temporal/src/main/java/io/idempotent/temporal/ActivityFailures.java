package io.idempotent.temporal;

import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.ToolErrorReply;
import io.temporal.failure.ApplicationFailure;
import java.lang.System.Logger.Level;
import java.util.Optional;

/**
 * The one home of what an idempotency outcome does to a Temporal activity: an
 * {@link ApplicationFailure} whose type is the runtime exception's class name (fixed by the
 * library's public contract, so a workflow can catch it and a retry policy can name it), retryable
 * exactly when the exception {@linkplain IdempotencyException#retryable() is}. Retryable ones
 * (in progress, store unavailable, lease lost, approval pending) let Temporal back off and try the
 * same call again, which then replays; the others (payload conflict, needs reconciliation, approval
 * denied, a missing step or binding) stop the retries: a repeat would get the same answer until a
 * person or the workflow changes something.
 *
 * <p>The failure carries the exception's message (tool, key, what happened, where to look; never a
 * payload or result) and no cause, so the body's own exceptions and their messages never reach
 * Temporal's history through this path.
 */
final class ActivityFailures {

    private static final System.Logger LOG = System.getLogger(ActivityFailures.class.getName());

    private ActivityFailures() {
    }

    /** The failure for the runtime's exception in {@code thrown} or its causes, or empty when it has none. */
    static Optional<ApplicationFailure> forThrown(Throwable thrown) {
        if (thrown instanceof ApplicationFailure) {
            return Optional.empty(); // already Temporal's answer (for example a refused manual completion)
        }
        return ToolErrorReply.idempotencyCause(thrown).map(ActivityFailures::failure);
    }

    static ApplicationFailure failure(IdempotencyException e) {
        LOG.log(Level.INFO, () -> "tool " + e.tool() + ", key " + e.operationKey() + ": "
                + e.getClass().getSimpleName() + " answered to Temporal as a " + (e.retryable() ? "retryable"
                : "non-retryable") + " activity failure");
        return ApplicationFailure.newBuilder().setMessage(e.getMessage()).setType(e.getClass().getName())
                .setNonRetryable(!e.retryable()).build();
    }
}
