package io.idempotent.runtime.outbox;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OutboxRelay;
import java.time.Duration;

/**
 * Run in a forked JVM by {@link RelayCrashTest}: a relay sends the store's one message to a
 * {@link TableDestination}, and the JVM halts right after the destination committed its effect,
 * before the relay could record the delivery (no close, no flush), as a killed process does.
 */
public final class CrashingRelay {

    /** How long the dead relay's claim lasts. */
    static final Duration CLAIM = Duration.ofMillis(1_500);

    private CrashingRelay() {
    }

    /** Arguments: JDBC URL, user, password. */
    public static void main(String[] args) {
        IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", args[0], args[1], args[2]).build();
        TableDestination destination = new TableDestination(args[0], args[1], args[2], () -> {
            System.out.println("HALTING");
            System.out.flush();
            Runtime.getRuntime().halt(0);
        });
        runtime.outbox().relay("default", destination, OutboxRelay.Settings.defaults().withRelayId("relay-killed")
                .withClaim(CLAIM)).deliverDue();
        System.out.println("NOT HALTED");
        Runtime.getRuntime().halt(3);
    }
}
