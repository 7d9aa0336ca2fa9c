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
                Arguments.of("back\\slash", "back\\slash"));
    }

    @ParameterizedTest
    @MethodSource("texts")
    void escapesEveryControlCharacterAndKeepsTheRest(String raw, String shown) {
        assertThat(TerminalText.escape(raw)).isEqualTo(shown);
    }
}
