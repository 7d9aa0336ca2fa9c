package io.idempotent.runtime.internal;

import io.idempotent.runtime.ValueRejectedException;

/**
 * The rules a message sent through the outbox must satisfy before the body goes on: a destination
 * that fits its column and that operators can read in terminals and logs, and a message at all.
 * Checked at {@code send}, so a bad one fails the body (before its completion) instead of the
 * completion after the effect.
 */
final class OutboxDestinations {

    /** The width of {@code tool_operation_outbox.destination}. */
    static final int MAX_LENGTH = 200;

    private OutboxDestinations() {
    }

    static void requireValid(String tool, String key, String destination, String message) {
        String problem = null;
        if (destination == null || destination.isEmpty()) {
            problem = "the outbox destination is empty";
        } else if (destination.length() > MAX_LENGTH) {
            problem = "the outbox destination has " + destination.length() + " characters, more than "
                    + MAX_LENGTH;
        } else if (message == null) {
            problem = "the outbox message is null";
        } else {
            for (int i = 0; i < destination.length() && problem == null; i++) {
                if (Character.isISOControl(destination.charAt(i))) {
                    problem = "the outbox destination contains the control character U+"
                            + String.format("%04X", (int) destination.charAt(i)) + " at index " + i;
                }
            }
        }
        if (problem != null) {
            throw new ValueRejectedException(tool, key, problem + "; nothing was sent", "Name the destination in 1"
                    + " to " + MAX_LENGTH + " characters without control characters, and send a message", null);
        }
    }
}
