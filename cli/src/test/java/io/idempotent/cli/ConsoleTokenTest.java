package io.idempotent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A console token from the environment must hold at least 128 bits: 22 characters of a
 * base64url-like alphabet, 32 hex digits, 39 decimal digits. The refusal never quotes the token.
 */
class ConsoleTokenTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            hunter2-secret,                          14 characters
            Abcdefghijklmnopqrstu,                   21 characters
            0123456789abcdef0123456789abcde,         31 characters
            830517942658301742956183047295618340275, ''
            01234567890123456789012345678901234567,  38 characters
            Abcdefghijklmnopqrstuv,                  ''
            3f9a0c7be1d24856a9f03c7e1b5d2a46,        ''
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
}
