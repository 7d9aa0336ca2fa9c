package io.idempotent.runtime.internal.outbox;

import java.util.UUID;

/** Default names of outbox relays: the process ({@code pid@host}) and a random part, unique per relay. */
public final class RelayIds {

    private RelayIds() {
    }

    /** A new relay id. */
    public static String next() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "unknown-host";
        }
        String id = ProcessHandle.current().pid() + "@" + host + "/" + UUID.randomUUID().toString().substring(0, 8);
        return id.length() <= 200 ? id : id.substring(id.length() - 200);
    }
}
