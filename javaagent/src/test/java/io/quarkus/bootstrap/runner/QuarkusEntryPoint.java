package io.quarkus.bootstrap.runner;

/**
 * A stand-in for Quarkus's launcher, for {@code io.idempotent.agent.forked.PackagingIT}'s fake
 * fast-jar: the agent knows a fast-jar by this Main-Class. It prints what the agent left in the
 * JVM's system properties for the test to read.
 */
public final class QuarkusEntryPoint {

    private QuarkusEntryPoint() {
    }

    /** Prints {@code h2.bindAddress}. */
    public static void main(String[] args) {
        System.out.println("main ran: h2.bindAddress=" + System.getProperty("h2.bindAddress"));
    }
}
