package io.idempotent.runtime.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Who asked for an approval, as the queue shows it: this JVM, {@code pid@host}. A model or a
 * user's session has no identity the runtime could trust; the step key says which decision of the
 * workflow asked.
 */
public final class Requester {

    /** This JVM's {@code pid@host}, at most 200 characters (the column's width); outbox relays are named after it. */
    public static final String ID = of();

    private Requester() {
    }

    private static String of() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException | SecurityException e) {
            host = "unknown-host";
        }
        String id = ProcessHandle.current().pid() + "@" + host;
        return id.length() <= 200 ? id : id.substring(0, 200);
    }
}
