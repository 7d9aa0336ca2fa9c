package io.idempotent.policy.internal;

/**
 * The one rule that keeps H2's TCP servers (the embedded store's {@code AUTO_SERVER}, through which
 * the JVMs of a machine share its file) on loopback: H2 binds them to every network interface
 * unless its system property {@code h2.bindAddress} names one, and reads that property once, when
 * H2 is first used in the JVM. The agent applies it in premain, before any application code can
 * use H2; the runtime again before its store first uses H2 (a JVM without the agent). A value the
 * user set is left alone. Not for users.
 */
public final class H2Loopback {

    /** H2's system property for the address its servers bind to. */
    public static final String BIND_ADDRESS = "h2.bindAddress";

    /** The address they bind to unless the user chose another. */
    public static final String LOOPBACK = "127.0.0.1";

    private H2Loopback() {
    }

    /** Sets {@code h2.bindAddress=127.0.0.1} unless the JVM already has a value for it. */
    public static void keep() {
        if (System.getProperty(BIND_ADDRESS) == null) {
            System.setProperty(BIND_ADDRESS, LOOPBACK);
        }
    }
}
