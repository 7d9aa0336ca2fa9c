package io.idempotent.cli;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The console's logged-in browsers. A session is opened only by a correct token; its id is random
 * (never the token, so a leaked cookie ends with its session) and it carries its own anti-forgery
 * value. Sessions end at logout or after {@link #LIFETIME}, whichever comes first, and at most
 * {@link #MAX_SESSIONS} are kept (the oldest goes first), so memory stays bounded.
 */
final class ConsoleSessions {

    /** The cookie that carries the session id. */
    static final String COOKIE = "idempotent_console_session";
    /** How long a session lasts from its login, however it is used. */
    static final Duration LIFETIME = Duration.ofHours(8);
    static final int MAX_SESSIONS = 64;

    /** One logged-in browser: its id (the cookie), its anti-forgery value and when it ends. */
    record Session(String id, String csrf, Instant expires) {
    }

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    /** A new session, after a correct token. */
    synchronized Session open() {
        Instant now = Instant.now();
        sessions.values().removeIf(s -> !s.expires().isAfter(now));
        if (sessions.size() >= MAX_SESSIONS) {
            sessions.values().stream().min(Comparator.comparing(Session::expires))
                    .ifPresent(oldest -> sessions.remove(oldest.id()));
        }
        Session session = new Session(randomId(), randomId(), now.plus(LIFETIME));
        sessions.put(session.id(), session);
        return session;
    }

    /** The live session named by the request's {@code Cookie} headers, if any. */
    Optional<Session> find(List<String> cookieHeaders) {
        String id = cookie(cookieHeaders);
        if (id == null) {
            return Optional.empty();
        }
        Session session = sessions.get(id);
        if (session == null) {
            return Optional.empty();
        }
        if (!session.expires().isAfter(Instant.now())) {
            sessions.remove(id);
            return Optional.empty();
        }
        return Optional.of(session);
    }

    /** Ends {@code session} (logout). */
    void close(Session session) {
        sessions.remove(session.id());
    }

    /** The {@code Set-Cookie} value that gives a browser {@code session}. */
    static String setCookie(Session session) {
        return COOKIE + "=" + session.id() + "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" + LIFETIME.toSeconds();
    }

    /** The {@code Set-Cookie} value that makes a browser forget its session. */
    static String clearCookie() {
        return COOKIE + "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0";
    }

    private static String cookie(List<String> headers) {
        if (headers == null) {
            return null;
        }
        for (String header : headers) {
            for (String pair : header.split(";")) {
                String p = pair.strip();
                if (p.startsWith(COOKIE + "=")) {
                    return p.substring(COOKIE.length() + 1);
                }
            }
        }
        return null;
    }

    private String randomId() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
