/**
 * The javaagent: start-up ({@code premain}/{@code agentmain}), argument parsing and the advice
 * woven into every {@code @IdempotentTool} method. <strong>Not for public use:</strong> users
 * configure the agent through its arguments and system properties, never through these classes.
 */
package io.idempotent.agent;
