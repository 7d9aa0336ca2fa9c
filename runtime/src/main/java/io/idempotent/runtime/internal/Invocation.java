package io.idempotent.runtime.internal;

/**
 * What {@link Engine#begin} decided for one call: answer it with a stored result, or run the
 * body as the attempt that owns the key.
 */
public sealed interface Invocation {

    /** The call is answered without running the body. */
    record Replay(Object result) implements Invocation {

        /** The result's type only. */
        @Override
        public String toString() {
            return "Replay[result=" + Redacted.type(result) + "]";
        }
    }

    /**
     * The call owns the key: run the body, then report exactly one of {@link #succeeded} or
     * {@link #failed}.
     */
    final class Execution implements Invocation {

        private final Completions completions;
        private final FailureClassification failures;
        private final AttemptContext attempt;
        private final LeaseHeartbeat.Beating heartbeat;
        /** Volatile: an asynchronous body's outcome is reported on another thread than its claim's. */
        private volatile boolean finished;
        /** The transaction of a transactional tool's call (which has no heartbeat), or null. */
        private TransactionalCall transaction;

        Execution(Completions completions, FailureClassification failures, AttemptContext attempt,
                LeaseHeartbeat.Beating heartbeat) {
            this.completions = completions;
            this.failures = failures;
            this.attempt = attempt;
            this.heartbeat = heartbeat;
        }

        /**
         * Stores the body's result and returns what the caller gets.
         *
         * @throws io.idempotent.runtime.LeaseLostException if the attempt lost its lease
         */
        public Object succeeded(Object result) {
            end();
            if (transaction != null) {
                return transaction.succeeded(() -> completions.completed(attempt, result));
            }
            try {
                return completions.completed(attempt, result);
            } finally {
                // The lease must outlive the final write, which may take several tries.
                heartbeat.stop();
            }
        }

        /** Classifies the body's failure and records it; the caller rethrows {@code failure}. */
        public void failed(Throwable failure) {
            end();
            if (transaction != null) {
                if (failure instanceof SimulatedWorkerDeath) {
                    transaction.undo(failure); // a dead worker's transaction is rolled back by the database
                } else {
                    transaction.failed(failure, () -> failures.failed(attempt, failure));
                }
                return;
            }
            if (failure instanceof SimulatedWorkerDeath) {
                heartbeat.stop();
                return; // the contract test kit's dead worker records nothing, like a real one
            }
            try {
                failures.failed(attempt, failure);
            } finally {
                heartbeat.stop();
            }
        }

        /**
         * Releases the claim of a body that was never started (safe to retry, whatever the effect
         * boundary); for an asynchronous call cancelled before its body began.
         */
        public void released(Throwable why) {
            end();
            try {
                failures.released(attempt, why);
            } finally {
                heartbeat.stop();
            }
        }

        /**
         * Takes the attempt off the current thread: the body's synchronous part returned a stage
         * that completes elsewhere, and this thread goes on to other work. The lease stays beating
         * until {@link #succeeded} or {@link #failed}, which any thread may then call.
         */
        public void detach() {
            CurrentAttempt.pop(attempt);
        }

        /**
         * Puts the attempt on the current thread, for the body's synchronous part when it runs on
         * another thread than the claim (an asynchronous call); {@link #detach()} takes it off.
         */
        public void attach() {
            CurrentAttempt.push(attempt);
        }

        /**
         * Stops the heartbeat and leaves the record exactly as a worker that died inside the body
         * would: for tests of crash recovery.
         */
        public void abandon() {
            end();
            if (transaction != null) {
                transaction.undo(null);
                return;
            }
            heartbeat.stop();
        }

        /** Runs the rest of the call in {@code call}'s transaction (a transactional tool's call). */
        void inTransaction(TransactionalCall call) {
            this.transaction = call;
            attempt.inTransaction(call);
        }

        /** The attempt's context. */
        public io.idempotent.runtime.OperationContext context() {
            return attempt;
        }

        private void end() {
            if (finished) {
                throw new IllegalStateException("the outcome of attempt " + attempt.attemptId() + " was already reported");
            }
            finished = true;
            CurrentAttempt.pop(attempt);
        }
    }
}
