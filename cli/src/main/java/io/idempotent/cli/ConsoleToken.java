package io.idempotent.cli;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The operator's console token, and the one place it is checked: in constant time, so that the
 * time an answer takes does not tell how much of a guess was right, and rate-limited per remote
 * address, so that it cannot be guessed by trying. From the {@link #FREE_FAILURES}th wrong token
 * on, an address is locked out for {@link #FIRST_LOCK}, doubling with each further wrong token up
 * to {@link #LONGEST_LOCK}; while locked, even the right token is refused. A right token clears
 * the address's count. Every wrong token is logged at WARNING with the address, never the token.
 */
final class ConsoleToken {

    /** What a check found. */
    enum Check {
        RIGHT,
        WRONG,
        /** Not checked: the address gave too many wrong tokens and must wait. */
        LOCKED
    }

    static final int FREE_FAILURES = 5;
    static final Duration FIRST_LOCK = Duration.ofSeconds(30);
    static final Duration LONGEST_LOCK = Duration.ofMinutes(15);
    /** The fewest bits a token from the environment must hold. */
    static final int MIN_BITS = 128;
    private static final int MAX_ADDRESSES = 1024;
    private static final System.Logger LOG = System.getLogger(ConsoleServer.class.getName());

    /** Wrong tokens from one address so far, and until when it is locked out. */
    private record Failures(int count, Instant lockedUntil, Instant last) {
    }

    private final byte[] token;
    private final Map<String, Failures> failures = new ConcurrentHashMap<>();

    ConsoleToken(String token) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * What is wrong with {@code token} as a console token, or null when it holds at least
     * {@link #MIN_BITS} bits by the size of its alphabet (decimal digits 3.3 bits a character, hex
     * digits 4, anything else 6, as base64url); never quotes the token.
     */
    static String problem(String token) {
        for (int i = 0; i < token.length(); i++) {
            if (Character.isISOControl(token.charAt(i)) || Character.isWhitespace(token.charAt(i))) {
                return "it contains a control or space character (at index " + i + ")";
            }
        }
        boolean decimal = token.chars().allMatch(c -> c >= '0' && c <= '9');
        boolean hex = token.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 128);
        int needed = decimal ? 39 : hex ? MIN_BITS / 4 : (MIN_BITS + 5) / 6;
        if (token.length() < needed) {
            return "it has " + token.length() + " characters, fewer than the " + needed + " that hold " + MIN_BITS
                    + " bits" + (decimal ? " of decimal digits" : hex ? " of hex digits" : "");
        }
        return null;
    }

    /** Checks {@code given}, sent from {@code address}, against the token and the address's lock-out. */
    Check check(String given, String address) {
        Instant now = Instant.now();
        Failures before = failures.get(address);
        if (before != null && before.lockedUntil() != null && now.isBefore(before.lockedUntil())) {
            return Check.LOCKED;
        }
        if (given != null && MessageDigest.isEqual(token, given.getBytes(StandardCharsets.UTF_8))) {
            failures.remove(address);
            return Check.RIGHT;
        }
        Failures after = failures.compute(address, (a, f) -> {
            // A quiet address starts again: an operator's typo of last week does not count.
            int count = f == null || f.last().plus(LONGEST_LOCK).isBefore(now) ? 1 : f.count() + 1;
            return new Failures(count, count < FREE_FAILURES ? null : now.plus(lock(count)), now);
        });
        LOG.log(System.Logger.Level.WARNING, "wrong console token from " + address + " (" + after.count()
                + " in a row" + (after.lockedUntil() == null ? ")" : "; this address is refused for "
                + lock(after.count()).toSeconds() + " s)"));
        if (failures.size() > MAX_ADDRESSES) {
            failures.values().removeIf(f -> f.lockedUntil() == null || f.lockedUntil().isBefore(now));
        }
        return Check.WRONG;
    }

    private static Duration lock(int count) {
        int doublings = Math.min(count - FREE_FAILURES, 10);
        Duration lock = FIRST_LOCK.multipliedBy(1L << doublings);
        return lock.compareTo(LONGEST_LOCK) > 0 ? LONGEST_LOCK : lock;
    }
}
