/**
 * The runtime's engine: the claim/replay/reconcile protocol, codecs, configuration and the
 * lease heartbeat. <strong>Not for public use:</strong> anything here may change in any release.
 * Application code uses {@code io.idempotent.runtime}; the agent's advice reaches this package
 * only through {@code io.idempotent.runtime.agent.ToolDispatcher}.
 */
package io.idempotent.runtime.internal;
