/**
 * The one entry point of the javaagent's inlined advice. <strong>Not for application
 * code:</strong> the advice woven into tool methods calls
 * {@link io.idempotent.runtime.agent.ToolDispatcher}; its signatures are part of the contract
 * between the agent jar and the runtime jar of the same version, nothing more.
 */
package io.idempotent.runtime.agent;
