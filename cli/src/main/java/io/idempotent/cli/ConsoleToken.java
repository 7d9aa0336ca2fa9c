package io.idempotent.cli;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The operator's console token, and the one place it is checked: in constant time, so that the
 * time an answer takes does not tell how much of a guess was right. What keeps it from being
 * guessed is its size: at least {@link #MIN_BITS} bits, and random-looking ({@link #problem}).
 *
 * <p>Wrong tokens are counted per remote address: from the {@link #FREE_FAILURES}th in a row on,
 * a wrong token from that address is answered {@link Check#LOCKED} for {@link #FIRST_LOCK},
 * doubling with each further one up to {@link #LONGEST_LOCK}, and every wrong token is logged at
 * WARNING with the address, never the token. The right token is never refused, locked or not, at
 * the login and inside a session alike: every local account reaches the console from the same
 * loopback address, so a lock that refused the right token would let any of them lock the
 * operator out. A lock that refuses only wrong tokens gives a guesser nothing either way (the
 * answer to a guess is the same: not in), so the count is there to be seen in the log, not to
 * slow anyone; the token's size does that. A right token clears the address's count.
 */
final class ConsoleToken {

    /** What a check found. */
    enum Check {
        RIGHT,
        WRONG,
        /** Wrong, from an address that gave too many wrong tokens in a row (answered 429). */
        LOCKED
    }

    static final int FREE_FAILURES = 5;
    static final Duration FIRST_LOCK = Duration.ofSeconds(30);
    static final Duration LONGEST_LOCK = Duration.ofMinutes(15);
    /** The fewest bits a token from the environment must hold. */
    static final int MIN_BITS = 128;
    /** The fewest different characters a token from the environment must have. */
    static final int MIN_DIFFERENT = 6;
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
        return notRandom(token);
    }

    /**
     * Why {@code token}, long enough for its alphabet, still holds far fewer bits than its length
     * says, or null: fewer than {@link #MIN_DIFFERENT} different characters, one character in
     * more than half of it, or one string repeated. A random token of the shortest accepted length
     * fails none of these but with a negligible chance (below one in a million).
     */
    private static String notRandom(String token) {
        long different = token.chars().distinct().count();
        if (different < MIN_DIFFERENT) {
            return "it has " + different + " different character" + (different == 1 ? "" : "s") + ", fewer than the "
                    + MIN_DIFFERENT + " a random token has";
        }
        int[] counts = new int[Character.MAX_VALUE + 1];
        for (int i = 0; i < token.length(); i++) {
            if (++counts[token.charAt(i)] * 2 > token.length()) {
                return "one character makes up more than half of it";
            }
        }
        for (int period = 1; period <= token.length() / 2; period++) {
            if (repeats(token, period)) {
                return "it repeats its first " + period + " characters";
            }
        }
        return null;
    }

    private static boolean repeats(String token, int period) {
        for (int i = period; i < token.length(); i++) {
            if (token.charAt(i) != token.charAt(i - period)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Checks {@code given}, sent from {@code address}: {@link Check#RIGHT} for the right token
     * whatever the address's count, else {@link Check#LOCKED} while the address is refused, else
     * {@link Check#WRONG}, counted.
     */
    Check check(String given, String address) {
        Instant now = Instant.now();
        if (given != null && MessageDigest.isEqual(token, given.getBytes(StandardCharsets.UTF_8))) {
            failures.remove(address);
            return Check.RIGHT;
        }
        Failures before = failures.get(address);
        if (before != null && before.lockedUntil() != null && now.isBefore(before.lockedUntil())) {
            return Check.LOCKED;
        }
        Failures after = failures.compute(address, (a, f) -> {
            // A quiet address starts again: an operator's typo of last week does not count.
            int count = f == null || f.last().plus(LONGEST_LOCK).isBefore(now) ? 1 : f.count() + 1;
            return new Failures(count, count < FREE_FAILURES ? null : now.plus(lock(count)), now);
        });
        LOG.log(System.Logger.Level.WARNING, "wrong console token from " + address + " (" + after.count()
                + " in a row" + (after.lockedUntil() == null ? ")" : "; wrong tokens from this address are refused for "
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
