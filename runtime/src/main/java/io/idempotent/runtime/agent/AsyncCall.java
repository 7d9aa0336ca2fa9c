package io.idempotent.runtime.agent;

/**
 * An asynchronous tool's call on the caller's thread: its body is skipped there, and the method
 * returns the runtime's stage or {@code Mono}, whose body is the method invoked again on the
 * runtime's executor ({@link AsyncTools}).
 */
final class AsyncCall extends AnsweredCall {

    private final Object stageOrMono;

    AsyncCall(Object stageOrMono) {
        this.stageOrMono = stageOrMono;
    }

    @Override
    public Object exit(Object returned, Throwable thrown) {
        return stageOrMono;
    }
}
