/**
 * Spring AI integration: {@link io.idempotent.springai.IdempotentToolExecutionExceptionProcessor}
 * (what the model is told), its Boot auto-configuration, and
 * {@link io.idempotent.springai.StepFromToolContext} (the workflow's step on Spring AI's threads),
 * and {@link io.idempotent.springai.IdempotentMcpMetaConverter} (only the step into an MCP request's
 * {@code _meta}).
 */
package io.idempotent.springai;
