package io.idempotent.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Type;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A settled result is read strictly (docs/operating.md, "The command line"): a value of another JSON type
 * is refused rather than coerced, and a malformed one is named by line and column, never quoted.
 */
class SettlementsTest {

    @ParameterizedTest(name = "{0} as {1}")
    @CsvSource(delimiter = '|', textBlock = """
            12345              | java.lang.String  | does not fit
            12.5               | java.lang.String  | does not fit
            true               | java.lang.String  | does not fit
            "12"               | int               | does not fit
            1                  | boolean           | does not fit
            "secret-text       | java.lang.String  | not well-formed JSON (line 1, column
            {"a": secret-text} | java.util.Map     | not well-formed JSON (line 1, column 7)
            """)
    void aValueOfAnotherTypeOrMalformedJsonIsRefused(String json, String type, String says) {
        assertThatThrownBy(() -> Settlements.fit("t", type(type), json)).isInstanceOf(RefusedException.class)
                .hasMessageContaining(says).hasMessageContaining("nothing was changed")
                .hasMessageNotContaining("secret-text").hasMessageNotContaining("12345");
    }

    @ParameterizedTest(name = "{0} as {1}")
    @CsvSource(delimiter = '|', textBlock = """
            "12345" | java.lang.String
            12      | int
            true    | boolean
            """)
    void aValueOfTheRightTypeFits(String json, String type) throws ClassNotFoundException {
        assertThat(Settlements.fit("t", type(type), json)).hasToString(json.replace("\"", ""));
    }

    private static Type type(String name) throws ClassNotFoundException {
        return switch (name) {
            case "int" -> int.class;
            case "boolean" -> boolean.class;
            default -> Class.forName(name);
        };
    }
}
