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
            012345678901234567890123456789012345678, ''
            01234567890123456789012345678901234567,  38 characters
            Abcdefghijklmnopqrstuv,                  ''
            0123456789abcdef0123456789abcdef,        ''
            """)
    void aTokenNeedsOneHundredTwentyEightBits(String token, String says) {
        String problem = ConsoleToken.problem(token);
        if (says == null || says.isEmpty()) {
            assertThat(problem).isNull();
        } else {
            assertThat(problem).contains(says).doesNotContain(token);
        }
    }
}
