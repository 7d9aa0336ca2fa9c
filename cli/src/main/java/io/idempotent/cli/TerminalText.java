package io.idempotent.cli;

/**
 * Text from the store shown to a person: the one rule for what of it may reach the screen as it
 * is, used by every text line and table cell of the command line ({@link Table}, {@link ErrorLine}),
 * by {@code --json} ({@link Json}) and by the console ({@link Html}). Stored values (payloads,
 * results, reasons, errors, keys) and arguments may hold characters that are acted on or hidden
 * instead of shown: ESC starts sequences that move the cursor, retitle the window or write to the
 * clipboard; C1's CSI does the same in one character; a line break forges a line; a bidirectional
 * control reorders what is read ("9876-5432" read as "2345-6789"); tag characters (U+E0000 to
 * U+E007F) and other format characters carry text no one sees but a model reads; private-use and
 * unassigned code points have no agreed glyph. The rule works by code point, not by UTF-16 unit,
 * so a character outside the Basic Multilingual Plane is judged as itself, not as two surrogates.
 */
final class TerminalText {

    private TerminalText() {
    }

    /**
     * Whether {@code codePoint} must be shown as an escape: a control (C0, DEL, C1), format (Cf:
     * bidirectional controls, zero-width characters, tags), private-use, unassigned (in this JVM's
     * Unicode version) or lone surrogate code point, or a line or paragraph separator.
     */
    static boolean isHidden(int codePoint) {
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL, Character.FORMAT, Character.PRIVATE_USE, Character.UNASSIGNED,
                    Character.SURROGATE, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> true;
            default -> false;
        };
    }

    /** The index and code point of the first hidden character of {@code text}, "U+XXXX at index N", or null. */
    static String firstHidden(String text) {
        for (int i = 0; i < text.length(); i += Character.charCount(text.codePointAt(i))) {
            int cp = text.codePointAt(i);
            if (isHidden(cp)) {
                return String.format("U+%04X at index %d", cp, i);
            }
        }
        return null;
    }

    /**
     * {@code text} with every hidden code point ({@link #isHidden}) escaped: {@code \r}, {@code \n},
     * {@code \t}, {@code \}{@code uXXXX} in the Basic Multilingual Plane, {@code \}{@code u{XXXXX}}
     * beyond it; null stays null.
     */
    static String escape(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder out = null;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int next = i + Character.charCount(cp);
            if (isHidden(cp)) {
                if (out == null) {
                    out = new StringBuilder(text.length() + 16).append(text, 0, i);
                }
                switch (cp) {
                    case '\r' -> out.append("\\r");
                    case '\n' -> out.append("\\n");
                    case '\t' -> out.append("\\t");
                    default -> out.append(cp < 0x10000 ? String.format("\\u%04X", cp) : String.format("\\u{%X}", cp));
                }
            } else if (out != null) {
                out.append(text, i, next);
            }
            i = next;
        }
        return out == null ? text : out.toString();
    }

    /**
     * {@code json} (a JSON text) with every hidden code point at or above DEL written as JSON
     * escapes: {@code \}{@code uXXXX}, or the two surrogates' escapes beyond the Basic Multilingual
     * Plane, the only way JSON spells them. Below DEL, outside strings, are only the layout's line
     * breaks and spaces; inside strings JSON's writer has escaped those already.
     */
    static String escapeJson(String json) {
        StringBuilder out = null;
        for (int i = 0; i < json.length(); ) {
            int cp = json.codePointAt(i);
            int next = i + Character.charCount(cp);
            if (cp >= 0x7F && isHidden(cp)) {
                if (out == null) {
                    out = new StringBuilder(json.length() + 16).append(json, 0, i);
                }
                for (char unit : Character.toChars(cp)) {
                    out.append(String.format("\\u%04X", (int) unit));
                }
            } else if (out != null) {
                out.append(json, i, next);
            }
            i = next;
        }
        return out == null ? json : out.toString();
    }
}
