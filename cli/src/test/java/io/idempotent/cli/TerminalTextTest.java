package io.idempotent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every control character a terminal could act on is shown as an escape, never written: C0
 * (ESC, BEL, the line breaks), DEL, C1 (the one-byte CSI) and the bidirectional overrides; other
 * text, accents and scripts included, is unchanged.
 */
class TerminalTextTest {

    static Stream<Arguments> texts() {
        return Stream.of(
                Arguments.of("\u001b[2J", "\\u001B[2J"),
                Arguments.of("a\rb\nc\td", "a\\rb\\nc\\td"),
                Arguments.of("bell\u0007", "bell\\u0007"),
                Arguments.of("nul\u0000", "nul\\u0000"),
                Arguments.of("del\u007f", "del\\u007F"),
                Arguments.of("csi\u009b31m", "csi\\u009B31m"),
                Arguments.of("nel\u0085", "nel\\u0085"),
                Arguments.of("rtl\u202eevil", "rtl\\u202Eevil"),
                Arguments.of("isolate\u2066x", "isolate\\u2066x"),
                Arguments.of("line\u2028separator", "line\\u2028separator"),
                Arguments.of("caf\u00e9 \u65e5\u672c", "caf\u00e9 \u65e5\u672c"),
                Arguments.of("back\\slash", "back\\slash"),
                // Issue 48: by code point, so characters outside the Basic Multilingual Plane count too.
                Arguments.of("tag" + new String(Character.toChars(0xE0041)) + "end", "tag\\u{E0041}end"),
                Arguments.of("zero\u200Bwidth\uFEFF", "zero\\u200Bwidth\\uFEFF"),
                Arguments.of("pop\u202Cisolate\u2069", "pop\\u202Cisolate\\u2069"),
                Arguments.of("private\uE000" + new String(Character.toChars(0xF0000)), "private\\uE000\\u{F0000}"),
                Arguments.of("unassigned\u0378", "unassigned\\u0378"),
                Arguments.of("last of the plane\uFFFF", "last of the plane\\uFFFF"),
                Arguments.of("lone\uD800surrogate", "lone\\uD800surrogate"),
                Arguments.of("emoji " + new String(Character.toChars(0x1F600)), "emoji "
                        + new String(Character.toChars(0x1F600))));
    }

    @ParameterizedTest
    @MethodSource("texts")
    void escapesEveryControlCharacterAndKeepsTheRest(String raw, String shown) {
        assertThat(TerminalText.escape(raw)).isEqualTo(shown);
    }

    /** {@code --json} escapes the same code points, as JSON spells them, and reads back as the stored text. */
    @ParameterizedTest
    @MethodSource("texts")
    void jsonEscapesTheSameCharactersAndReadsBackUnchanged(String raw) throws Exception {
        String json = Json.write(Json.object().put("v", raw));
        // Every character outside ASCII that JSON writes raw is one the terminal's rule leaves as it is.
        assertThat(json.codePoints().filter(cp -> cp >= 0x7F)
                .mapToObj(cp -> new String(Character.toChars(cp)))).allSatisfy(c -> assertThat(TerminalText.escape(c))
                        .as("U+%04X", c.codePointAt(0)).isEqualTo(c));
        if (!raw.contains("\uD800")) {
            assertThat(Json.MAPPER.readTree(json).path("v").asText()).isEqualTo(raw);
        }
    }

    @org.junit.jupiter.api.Test
    void jsonWritesACharacterOutsideTheBasicPlaneAsTwoSurrogateEscapes() throws Exception {
        String tag = new String(Character.toChars(0xE0041));
        assertThat(Json.write(Json.object().put("v", "a" + tag + "\u202E")))
                .contains("a\\uDB40\\uDC41\\u202E").doesNotContain(tag, "\u202E");
    }

    @org.junit.jupiter.api.Test
    void firstHiddenNamesTheCodePointAndItsIndex() {
        assertThat(TerminalText.firstHidden("ab" + new String(Character.toChars(0xE0041)) + "\u202E")).isEqualTo(
                "U+E0041 at index 2");
        assertThat(TerminalText.firstHidden("al\u001b[2Jice")).isEqualTo("U+001B at index 2");
        assertThat(TerminalText.firstHidden("caf\u00e9 " + new String(Character.toChars(0x1F600)))).isNull();
    }
}
