package io.idempotent.runtime;

import java.util.Objects;
import java.util.Optional;

/**
 * How the runtime answered the tool call made on this thread, for an adapter that reports it
 * beside the result: MCP's result {@code _meta} says whether it was a replay and for which
 * operation key. Only the first call answered while a {@link Recording} is open is kept (the
 * tool the adapter called; tools its body calls come after), and only a call decided on the
 * recording's own thread, or on a thread that {@link #carry carries} it there (the runtime's
 * store thread that decides an asynchronous call made while the recording was open). It holds the tool, the key and the outcome, never a stored result or payload.
 */
public final class CallAnswers {

    private static final ThreadLocal<Recording> CURRENT = new ThreadLocal<>();

    private CallAnswers() {
    }

    /** One answered call: the tool, its operation key and how it was answered. */
    public record Answer(String tool, String key, CallOutcome outcome) {

        /** Checks that each part is given. */
        public Answer {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(outcome, "outcome");
        }
    }

    /** Starts recording this thread's first answered call; close it on the same thread. */
    public static Recording record() {
        Recording recording = new Recording(CURRENT.get());
        CURRENT.set(recording);
        return recording;
    }

    /** Called for every answered call of every runtime (by its listeners' composite). */
    static void note(String tool, String key, CallOutcome outcome) {
        Recording recording = CURRENT.get();
        if (recording != null && recording.first == null && tool != null && key != null && outcome != null) {
            recording.first = new Answer(tool, key, outcome);
        }
    }

    /**
     * {@code task}, run with the recording open on this thread now (if any) as the one its answered
     * calls are noted in: for the runtime's own threads that decide an asynchronous call on the
     * caller's behalf. The thread's own recording is put back after the task.
     */
    public static Runnable carry(Runnable task) {
        Objects.requireNonNull(task, "task");
        Recording carried = CURRENT.get();
        if (carried == null) {
            return task;
        }
        return () -> {
            Recording own = CURRENT.get();
            CURRENT.set(carried);
            try {
                task.run();
            } finally {
                if (own == null) {
                    CURRENT.remove();
                } else {
                    CURRENT.set(own);
                }
            }
        };
    }

    /** An open recording of this thread's first answered call. */
    public static final class Recording implements AutoCloseable {
        private final Recording outer;
        /** Written by the thread that answered (perhaps a runtime thread), read by the recording's. */
        private volatile Answer first;

        private Recording(Recording outer) {
            this.outer = outer;
        }

        /** The first call answered since the recording began, if any. */
        public Optional<Answer> first() {
            return Optional.ofNullable(first);
        }

        /** Ends the recording; an enclosing one records again. */
        @Override
        public void close() {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }
}
