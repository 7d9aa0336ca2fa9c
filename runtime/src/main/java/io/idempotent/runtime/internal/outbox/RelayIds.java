package io.idempotent.runtime.internal.outbox;

import io.idempotent.runtime.internal.Requester;
import java.util.UUID;

/** Default names of outbox relays: the process ({@code pid@host}) and a random part, unique per relay. */
public final class RelayIds {

    private RelayIds() {
    }

    /** A new relay id, at most 200 characters (the width of {@code claimed_by}). */
    public static String next() {
        String suffix = "/" + UUID.randomUUID().toString().substring(0, 8);
        String process = Requester.ID.length() + suffix.length() <= 200 ? Requester.ID
                : Requester.ID.substring(0, 200 - suffix.length());
        return process + suffix;
    }
}
