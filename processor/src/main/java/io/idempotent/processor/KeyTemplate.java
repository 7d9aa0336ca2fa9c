package io.idempotent.processor;

import java.util.ArrayList;
import java.util.List;

/** Splits a key template into literal text and placeholders, or says what is wrong with its braces. */
final class KeyTemplate {

    /** A placeholder's text without braces, split at dots. */
    record Placeholder(String text, List<String> segments) {
    }

    /** Literal text or a placeholder. */
    record Piece(String literal, Placeholder placeholder) {
    }

    private final List<Piece> pieces;
    private final String problem;

    private KeyTemplate(List<Piece> pieces, String problem) {
        this.pieces = pieces;
        this.problem = problem;
    }

    static KeyTemplate parse(String template) {
        List<Piece> pieces = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c == '}') {
                return new KeyTemplate(List.of(), "an unmatched '}' at index " + i);
            }
            if (c != '{') {
                literal.append(c);
                i++;
                continue;
            }
            int close = template.indexOf('}', i + 1);
            int nested = template.indexOf('{', i + 1);
            if (close < 0) {
                return new KeyTemplate(List.of(), "an unclosed '{' at index " + i);
            }
            if (nested >= 0 && nested < close) {
                return new KeyTemplate(List.of(), "a '{' inside a placeholder at index " + nested);
            }
            String text = template.substring(i + 1, close).strip();
            if (text.isEmpty()) {
                return new KeyTemplate(List.of(), "an empty placeholder {} at index " + i);
            }
            List<String> segments = List.of(text.split("\\.", -1));
            if (segments.stream().anyMatch(String::isBlank)) {
                return new KeyTemplate(List.of(), "an empty accessor in {" + text + "}");
            }
            if (literal.length() > 0) {
                pieces.add(new Piece(literal.toString(), null));
                literal.setLength(0);
            }
            pieces.add(new Piece(null, new Placeholder(text, segments.stream().map(String::strip).toList())));
            i = close + 1;
        }
        if (literal.length() > 0) {
            pieces.add(new Piece(literal.toString(), null));
        }
        return new KeyTemplate(pieces, null);
    }

    /** What is wrong with the braces, or null. */
    String problem() {
        return problem;
    }

    List<Piece> pieces() {
        return pieces;
    }
}
