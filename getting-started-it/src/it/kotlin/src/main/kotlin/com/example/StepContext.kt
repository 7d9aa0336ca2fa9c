package com.example

import io.idempotent.runtime.Step
import kotlin.coroutines.AbstractCoroutineContextElement
import kotlin.coroutines.CoroutineContext
import kotlinx.coroutines.ThreadContextElement

/**
 * Carries a step to every thread a coroutine runs on: opened each time the coroutine resumes on a
 * thread, closed when it suspends or ends there (docs/kotlin.md).
 */
class StepContext(private val stepKey: String) : ThreadContextElement<Step>, AbstractCoroutineContextElement(Key) {
    companion object Key : CoroutineContext.Key<StepContext>

    override fun updateThreadContext(context: CoroutineContext): Step = Step.begin(stepKey)

    override fun restoreThreadContext(context: CoroutineContext, oldState: Step) = oldState.close()
}

/** The step current on this thread, carried into the coroutine (an empty context without one). */
fun currentStep(): CoroutineContext = Step.currentKey().map<CoroutineContext> { StepContext(it) }
    .orElse(kotlin.coroutines.EmptyCoroutineContext)
