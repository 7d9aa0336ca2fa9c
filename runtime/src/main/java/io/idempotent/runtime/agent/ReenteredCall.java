package io.idempotent.runtime.agent;

/**
 * The one invocation of an asynchronous tool method that the runtime makes on its executor, after
 * the claim, to run the body ({@link AsyncTools}): it passes through the advice, and its outcome
 * (the body's stage or {@code Mono}) goes back to the runtime, which records it when it ends.
 */
final class ReenteredCall extends ToolCall {

    static final ReenteredCall INSTANCE = new ReenteredCall();

    private ReenteredCall() {
    }

    @Override
    public Object exit(Object returned, Throwable thrown) throws Throwable {
        if (thrown != null) {
            throw thrown;
        }
        return returned;
    }
}
