package io.idempotent.runtime.internal;

import com.fasterxml.jackson.core.io.NumberOutput;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * Writes a JSON tree in its canonical form, the same text on every JVM and JDK version:
 * <ul>
 *   <li>object keys sorted, no insignificant whitespace;
 *   <li>a set's elements (see {@link SetOrderMarker}) sorted by their canonical text; lists keep
 *       their order;
 *   <li>one form per number: plain decimal digits without trailing zeros ({@code 1}, {@code 1.0},
 *       {@code 1.00} and {@code 1E+0} are all {@code 1}); a {@code double} or {@code float} goes
 *       through its shortest decimal representation computed by Jackson's Schubfach writer, which
 *       is the same on JDK 17 and 25 (JDK 17's own {@code Double.toString} is not: JDK-4511638);
 *       {@code NaN} and the infinities are written as the bare tokens {@code NaN},
 *       {@code Infinity}, {@code -Infinity}, so they never equal a string;
 *   <li>numbers with more than {@value #MAX_DIGITS} significant digits or a scale beyond
 *       {@code ±}{@value #MAX_SCALE} are refused (their plain form could exhaust memory);
 *   <li>strings escaped one fixed way ({@code "}, {@code \}, and control characters below U+0020;
 *       everything else literal, whatever the application's mapper escapes), and refused if they
 *       hold an unpaired surrogate, which has no UTF-8 form (it would hash as {@code ?}).
 * </ul>
 */
final class CanonicalJson {

    /** The most significant digits a canonical number may have. */
    static final int MAX_DIGITS = 1000;
    /** The largest scale, either way, of a canonical number (after trailing zeros are stripped). */
    static final int MAX_SCALE = 1000;
    private static final BigInteger INTEGER_LIMIT = BigInteger.TEN.pow(MAX_DIGITS);
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** A value that has no canonical form; the reason names no part of the value. */
    static final class NotCanonical extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotCanonical(String reason) {
            super(reason, null, false, false);
        }
    }

    private CanonicalJson() {
    }

    /** Appends the canonical form of {@code node} (null is JSON null). */
    static void write(StringBuilder out, JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            out.append("null");
            return;
        }
        JsonNode set = SetOrderMarker.setContent(node);
        if (set != null) {
            writeSet(out, set);
            return;
        }
        switch (node.getNodeType()) {
            case OBJECT -> {
                List<String> fields = new ArrayList<>();
                for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                    fields.add(it.next());
                }
                Collections.sort(fields);
                out.append('{');
                for (int i = 0; i < fields.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    string(out, fields.get(i));
                    out.append(':');
                    write(out, node.get(fields.get(i)));
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(out, node.get(i));
                }
                out.append(']');
            }
            case NUMBER -> number(out, node);
            case STRING -> string(out, node.textValue());
            case BOOLEAN -> out.append(node.booleanValue());
            case BINARY, POJO -> string(out, node.asText());
            default -> out.append("null");
        }
    }

    private static void writeSet(StringBuilder out, JsonNode content) {
        if (!content.isArray()) {
            // WRITE_SINGLE_ELEM_ARRAYS_UNWRAPPED wrote a one-element set as its element.
            write(out, content);
            return;
        }
        List<String> elements = new ArrayList<>(content.size());
        for (JsonNode element : content) {
            StringBuilder text = new StringBuilder();
            write(text, element);
            elements.add(text.toString());
        }
        Collections.sort(elements);
        out.append('[').append(String.join(",", elements)).append(']');
    }

    private static void number(StringBuilder out, JsonNode node) {
        if (node.isIntegralNumber()) {
            BigInteger value = node.bigIntegerValue();
            if (value.abs().compareTo(INTEGER_LIMIT) >= 0) {
                throw tooLarge();
            }
            out.append(value);
        } else if (node.isFloat() || node.isDouble()) {
            double d = node.doubleValue();
            if (Double.isNaN(d)) {
                out.append("NaN");
            } else if (Double.isInfinite(d)) {
                out.append(d > 0 ? "Infinity" : "-Infinity");
            } else {
                // Shortest decimal that reads back as the same float/double, the same on every JDK.
                String shortest = node.isFloat() ? NumberOutput.toString(node.floatValue(), true)
                        : NumberOutput.toString(d, true);
                out.append(plain(new BigDecimal(shortest)));
            }
        } else {
            out.append(plain(node.decimalValue()));
        }
    }

    private static String plain(BigDecimal value) {
        if (value.precision() > 10 * MAX_DIGITS) {
            // Too long even if most digits were trailing zeros; stripping them would cost more.
            throw tooLarge();
        }
        BigDecimal stripped = value.stripTrailingZeros();
        if (stripped.signum() == 0) {
            return "0";
        }
        if (stripped.precision() > MAX_DIGITS || Math.abs((long) stripped.scale()) > MAX_SCALE) {
            throw tooLarge();
        }
        return stripped.toPlainString();
    }

    private static NotCanonical tooLarge() {
        return new NotCanonical("holds a number with more than " + MAX_DIGITS + " significant digits or a scale"
                + " beyond " + MAX_SCALE + " either way, which has no bounded canonical form");
    }

    /** Appends {@code s} as a JSON string, refusing unpaired surrogates. */
    static void string(StringBuilder out, String s) {
        out.append('"');
        int length = s.length();
        int literalFrom = 0;
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c)) {
                continue; // literal: appended with its neighbours in one piece
            }
            out.append(s, literalFrom, i);
            if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(s.charAt(i + 1))) {
                out.append(c).append(s.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                throw new NotCanonical("holds text with an unpaired surrogate (a lone half of a UTF-16 pair), which"
                        + " has no UTF-8 form and would hash like another text");
            } else if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else {
                switch (c) {
                    case '\b' -> out.append("\\b");
                    case '\f' -> out.append("\\f");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    default -> out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                }
            }
            literalFrom = i + 1;
        }
        out.append(s, literalFrom, length);
        out.append('"');
    }
}
