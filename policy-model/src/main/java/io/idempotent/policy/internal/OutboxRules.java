package io.idempotent.policy.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules of a tool's outbox declaration ({@code outbox = {"billing-events"}} on
 * {@code @IdempotentTool}): which destinations its body may {@code send} to. One home for the
 * processor's check, the policy builder's check and the runtime's check at {@code send}, so a
 * destination the build accepted is one the store's column and the operators' terminals take.
 */
public final class OutboxRules {

    /** The width of {@code tool_operation_outbox.destination}. */
    public static final int MAX_LENGTH = 200;

    private OutboxRules() {
    }

    /**
     * What is wrong with one destination name, or null when it is valid: 1 to {@link #MAX_LENGTH}
     * characters, no control characters (operators read it in terminals and logs).
     */
    public static String destinationProblem(String destination) {
        if (destination == null || destination.isEmpty()) {
            return "the outbox destination is empty";
        }
        if (destination.length() > MAX_LENGTH) {
            return "the outbox destination has " + destination.length() + " characters, more than " + MAX_LENGTH;
        }
        for (int i = 0; i < destination.length(); i++) {
            if (Character.isISOControl(destination.charAt(i))) {
                return "the outbox destination contains the control character U+"
                        + String.format("%04X", (int) destination.charAt(i)) + " at index " + i;
            }
        }
        return null;
    }

    /**
     * Every problem of a declared list of destinations, in order: each invalid name, and each name
     * declared twice (a copy-paste slip that hides a missing one). Empty when the list is valid; an
     * empty list is valid (the tool sends nothing).
     */
    public static List<String> declarationProblems(List<String> destinations) {
        List<String> problems = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String destination : destinations) {
            String problem = destinationProblem(destination);
            if (problem != null) {
                problems.add("outbox: " + problem);
            } else if (!seen.add(destination)) {
                problems.add("outbox: the destination \"" + destination + "\" is declared twice");
            }
        }
        return problems;
    }

    /**
     * Why a body may not send to {@code destination}: the tool did not declare it. Names the
     * attribute, so the fix is one edit of the annotation.
     */
    public static String undeclared(String destination, List<String> declared) {
        return "the tool sent a message to the outbox destination \"" + destination + "\", which its @IdempotentTool"
                + " does not declare in outbox = {...} (declared: " + (declared.isEmpty() ? "none" : String.join(", ",
                        declared)) + "); nothing was sent";
    }
}
