package io.idempotent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A console token from the environment must hold at least 128 bits: 22 characters of a
 * base64url-like alphabet, 32 hex digits, 39 decimal digits; six different characters and one in
 * half of it are still random enough. The refusal never quotes the token.
 */
class ConsoleTokenTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            hunter2-secret,                          14 characters
            Abcdefghijklmnopqrstu,                   '21 characters, fewer than the 22 that hold 128 bits'
            0123456789abcdef0123456789abcde,         '31 characters, fewer than the 32 that hold 128 bits of hex digits'
            830517942658301742956183047295618340275, ''
            01234567890123456789012345678901234567,  '38 characters, fewer than the 39 that hold 128 bits of decimal digits'
            Abcdefghijklmnopqrstuv,                  ''
            3f9a0c7be1d24856a9f03c7e1b5d2a46,        ''
            'Abcdefghijk mnopqrstuvwxyz',            'a control or space character (at index 11)'
            ghijklhgjilkkljihgiklgjh,                ''
            gggggggggggghijklmnopqrs,                ''
            """)
    void aTokenNeedsOneHundredTwentyEightBits(String token, String says) {
        String problem = ConsoleToken.problem(token);
        if (says == null || says.isEmpty()) {
            assertThat(problem).isNull();
        } else {
            assertThat(problem).contains(says).doesNotContain(token);
        }
    }

    /**
     * Issue 48: long enough is not enough. One character forty times, two in turn, one string
     * repeated, or mostly one character holds next to no bits, whatever its length.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, 1 different character
            abababababababababababababababababababab, 2 different characters
            0123456789abcdef0123456789abcdef,         repeats
            012345678901234567890123456789012345678,  repeats
            Tr0ub4dor-Tr0ub4dor-Tr0ub4dor-,           repeats
            aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabcdefgh1234, more than half
            """)
    void aTokenThatDoesNotLookRandomIsRefusedWhateverItsLength(String token, String says) {
        assertThat(ConsoleToken.problem(token)).isNotNull().contains(says).doesNotContain(token);
    }

    /**
     * Issue 48: wrong tokens from an address are answered {@code LOCKED} from the fifth in a row,
     * but the right token is never refused, from that address or any other: every local account
     * shares 127.0.0.1 with the operator.
     */
    @org.junit.jupiter.api.Test
    void wrongTokensLockOnlyWrongTokensAndTheRightOneIsNeverRefused() {
        String secret = "3f9a0c7be1d24856a9f03c7e1b5d2a46";
        ConsoleToken token = new ConsoleToken(secret);
        for (int i = 1; i < ConsoleToken.FREE_FAILURES; i++) {
            assertThat(token.check("guess-" + i, "127.0.0.1")).as("guess %d", i).isEqualTo(ConsoleToken.Check.WRONG);
        }
        assertThat(token.check("guess-5", "127.0.0.1")).isEqualTo(ConsoleToken.Check.WRONG);
        assertThat(token.check("guess-6", "127.0.0.1")).isEqualTo(ConsoleToken.Check.LOCKED);
        assertThat(token.check(null, "127.0.0.1")).isEqualTo(ConsoleToken.Check.LOCKED);
        assertThat(token.check("guess-7", "10.0.0.2")).as("another address keeps its own count")
                .isEqualTo(ConsoleToken.Check.WRONG);
        assertThat(token.check(secret, "127.0.0.1")).isEqualTo(ConsoleToken.Check.RIGHT);
        // The right token cleared the address's count: the next wrong one is wrong, not locked.
        assertThat(token.check("guess-8", "127.0.0.1")).isEqualTo(ConsoleToken.Check.WRONG);
        assertThat(token.check(secret + "x", "127.0.0.1")).isEqualTo(ConsoleToken.Check.WRONG);
    }
}
