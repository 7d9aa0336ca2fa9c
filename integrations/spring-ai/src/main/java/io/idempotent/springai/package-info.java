/**
 * Spring AI integration: {@link io.idempotent.springai.IdempotentToolExecutionExceptionProcessor}
 * (what the model is told), its Boot auto-configuration, and
 * {@link io.idempotent.springai.StepFromToolContext} (the workflow's step on Spring AI's threads).
 */
package io.idempotent.springai;
