/**
 * Temporal integration: {@link io.idempotent.temporal.IdempotentWorkerInterceptor} runs every
 * activity inside the workflow's step (or one derived from the activity's run, see
 * {@link io.idempotent.temporal.ActivityStepScope}) and answers the runtime's outcomes as failures
 * Temporal's retry policy understands. See docs/durable-engines.md.
 */
package io.idempotent.temporal;
