package io.idempotent.runtime.internal;

import io.idempotent.policy.internal.OutboxRules;
import io.idempotent.runtime.ValueRejectedException;
import java.util.List;

/**
 * The rules a message sent through the outbox must satisfy before the body goes on: a destination
 * the tool declared ({@code outbox = {...}} on {@code @IdempotentTool}, so the release gate's table
 * shows every tool that sends), that fits its column and that operators can read in terminals and
 * logs (the shape is {@link OutboxRules}'), and a message at all. Checked at {@code send}, so a bad
 * one fails the body (before its completion) instead of the completion after the effect.
 */
final class OutboxDestinations {

    private OutboxDestinations() {
    }

    static void requireValid(String tool, String key, List<String> declared, String destination, String message) {
        String problem = OutboxRules.destinationProblem(destination);
        if (problem == null && message == null) {
            problem = "the outbox message is null";
        }
        if (problem != null) {
            throw new ValueRejectedException(tool, key, problem + "; nothing was sent", "Name the destination in 1"
                    + " to " + OutboxRules.MAX_LENGTH + " characters without control characters, and send a message",
                    null);
        }
        // Fail closed: a body that sends where its declaration does not say would be a tool whose
        // release-gate table hides an effect.
        if (!declared.contains(destination)) {
            throw new ValueRejectedException(tool, key, OutboxRules.undeclared(destination, declared), "Add \""
                    + destination + "\" to outbox = {...} on the tool's @IdempotentTool (or to ToolPolicy.Builder"
                    + ".outbox for a policy built in code), then rebuild; see docs/outbox.md", null);
        }
    }
}
