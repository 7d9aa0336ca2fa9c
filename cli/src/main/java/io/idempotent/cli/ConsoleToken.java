package io.idempotent.cli;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The operator's console token, and the one place it is checked: in constant time, so that the
 * time an answer takes does not tell how much of a guess was right.
 */
final class ConsoleToken {

    private final byte[] token;

    ConsoleToken(String token) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    /** Whether {@code given} is the token. */
    boolean matches(String given) {
        return given != null && MessageDigest.isEqual(token, given.getBytes(StandardCharsets.UTF_8));
    }
}
