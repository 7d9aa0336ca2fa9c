/**
 * Kotlin coroutines: {@link io.idempotent.kotlin.StepContext} carries the workflow's step across
 * dispatchers.
 */
package io.idempotent.kotlin;
