package io.idempotent.cli;

/**
 * Text for a terminal: the one escaping every text line and table cell of the command line goes
 * through. Stored values (payloads, results, reasons, errors) and arguments may hold characters a
 * terminal acts on instead of showing: ESC starts sequences that move the cursor, clear the
 * screen, retitle the window or write to the clipboard; C1's CSI does the same in one character;
 * a line break forges a line; a bidirectional override reorders what is read. Each is shown as an
 * escape instead: {@code \r}, {@code \n}, {@code \t}, else {@code \}{@code uXXXX}.
 */
final class TerminalText {

    private TerminalText() {
    }

    /** Whether a terminal could act on {@code c} rather than show it: C0, DEL, C1, format and separator characters. */
    static boolean isControl(char c) {
        int type = Character.getType(c);
        return Character.isISOControl(c) || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR;
    }

    /** {@code text} with every control character escaped; null stays null. */
    static String escape(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!isControl(c)) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            switch (c) {
                case '\r' -> out.append("\\r");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                default -> out.append(String.format("\\u%04X", (int) c));
            }
        }
        return out == null ? text : out.toString();
    }
}
