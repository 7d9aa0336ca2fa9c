/**
 * How the runtime judges whether the listed tools run through the protocol
 * ({@link io.idempotent.runtime.ToolReadiness}). <strong>Not for application code.</strong>
 */
package io.idempotent.runtime.internal.readiness;
