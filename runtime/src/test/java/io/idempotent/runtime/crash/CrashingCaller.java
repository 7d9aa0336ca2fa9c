package io.idempotent.runtime.crash;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.Policies;
import java.util.Map;

/**
 * Run in a forked JVM by {@link AnswerLogCrashTest}: a completion, a failure, a settlement and
 * then many replays, and the JVM halts at once, as a killed process does (no close, no flush).
 */
public final class CrashingCaller {

    /** How many replays the caller makes before it halts. */
    public static final int REPLAYS = 200;

    private CrashingCaller() {
    }

    /** Arguments: JDBC URL, user, password. */
    public static void main(String[] args) {
        IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", args[0], args[1], args[2]).build();
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.SAFE).build();
        ToolPolicy mail = Policies.manualReview("send_mail", Retry.SAFE).build();
        runtime.call(refund, "refund:1", Map.of("amount", 5), String.class, () -> "refunded");
        try {
            runtime.call(mail, "mail:1", Map.of(), String.class, () -> {
                throw new IllegalStateException("reply lost");
            });
        } catch (IllegalStateException expected) {
            // the failure is recorded as needs_reconciliation
        }
        runtime.operations().settleNotApplied("default", "send_mail", "mail:1", "no such message", "alice");
        for (int i = 0; i < REPLAYS; i++) {
            runtime.call(refund, "refund:1", Map.of("amount", 5), String.class, () -> "never");
        }
        System.out.println("HALTING");
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
