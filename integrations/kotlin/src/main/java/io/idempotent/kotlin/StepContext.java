package io.idempotent.kotlin;

import io.idempotent.runtime.Step;
import java.util.Objects;
import kotlin.coroutines.AbstractCoroutineContextElement;
import kotlin.coroutines.CoroutineContext;
import kotlin.coroutines.EmptyCoroutineContext;
import kotlinx.coroutines.ThreadContextElement;

/**
 * A coroutine context element that carries the workflow's {@link Step} to every thread the
 * coroutine runs on: {@link Step} is per thread, and a coroutine that moves to another dispatcher
 * ({@code withContext(Dispatchers.IO)}) would otherwise call its tools without a step.
 *
 * <pre>{@code
 * runBlocking(StepContext("inv_842:approval_17")) {
 *     withContext(Dispatchers.IO) { tools.issueRefund("inv_842", 4200) }   // the step is there
 * }
 * }</pre>
 *
 * The step is begun each time the coroutine resumes on a thread and closed when it suspends or
 * ends there, so it never stays behind on a pooled thread.
 */
public final class StepContext extends AbstractCoroutineContextElement implements ThreadContextElement<Step> {

    /** The key of this element in a coroutine context. */
    public static final CoroutineContext.Key<StepContext> KEY = new CoroutineContext.Key<>() {
    };

    private final String stepKey;

    /** Carries the step {@code stepKey}. */
    public StepContext(String stepKey) {
        super(KEY);
        this.stepKey = Objects.requireNonNull(stepKey, "stepKey");
    }

    /** {@return the step current on this thread as a context to start a coroutine with, or an empty context} */
    public static CoroutineContext current() {
        return Step.currentKey().<CoroutineContext>map(StepContext::new).orElse(EmptyCoroutineContext.INSTANCE);
    }

    /** {@return the step key this element carries} */
    public String stepKey() {
        return stepKey;
    }

    /** Begins the step on the thread the coroutine resumes on. */
    @Override
    public Step updateThreadContext(CoroutineContext context) {
        return Step.begin(stepKey);
    }

    /** Closes the step the coroutine began on this thread, as it suspends or ends. */
    @Override
    public void restoreThreadContext(CoroutineContext context, Step oldState) {
        oldState.close();
    }

    @Override
    public String toString() {
        return "StepContext(" + stepKey + ")";
    }
}
