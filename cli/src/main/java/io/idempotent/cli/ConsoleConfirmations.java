package io.idempotent.cli;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The console's one-use confirmation, for every decision it can record (a settlement, a grant, a
 * denial): the operator reviews the decision, the console holds it under a random single-use id,
 * and only a second request that carries that id carries it out. The confirmation carries the id
 * alone, so what is recorded is exactly what was reviewed; it works once, for {@link #LIFETIME},
 * and only for the session that reviewed it.
 */
final class ConsoleConfirmations {

    /** How long a reviewed decision waits for its confirmation. */
    static final Duration LIFETIME = Duration.ofMinutes(10);

    /** One reviewed decision: whose session reviewed it and until when it can be confirmed. */
    private record Held(String session, Object decision, Instant expires) {
    }

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Held> held = new ConcurrentHashMap<>();

    /** Holds {@code decision}, reviewed in {@code session}; returns the id its confirmation must carry. */
    String hold(String session, Object decision) {
        Instant now = Instant.now();
        held.values().removeIf(h -> h.expires().isBefore(now));
        String id = randomId();
        held.put(id, new Held(session, decision, now.plus(LIFETIME)));
        return id;
    }

    /**
     * The decision held under {@code id}, if {@code session} reviewed it, it has not expired and it
     * is a {@code kind}; it is gone after this call whatever the answer, so a confirmation works
     * at most once.
     *
     * @throws RefusedException when there is no such decision for this session (unknown, used,
     *     expired, another session's or another kind's)
     */
    <T> T take(String id, String session, Class<T> kind) {
        Held h = id == null ? null : held.remove(id);
        if (h == null || h.expires().isBefore(Instant.now()) || !h.session().equals(session)
                || !kind.isInstance(h.decision())) {
            throw new RefusedException("this confirmation is unknown, used or expired: review the decision again");
        }
        return kind.cast(h.decision());
    }

    /** Forgets every decision {@code session} reviewed (logout). */
    void forget(String session) {
        held.values().removeIf(h -> h.session().equals(session));
    }

    private String randomId() {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
