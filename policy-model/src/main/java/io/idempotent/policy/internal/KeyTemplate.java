package io.idempotent.policy.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The syntax of an operation key template: literal text and {@code {placeholder}} or
 * {@code {param.accessor}} pieces. The processor checks annotated tools with it and
 * {@code ToolPolicy.Builder} checks programmatic ones, so both accept the same templates. Not for
 * users.
 */
public final class KeyTemplate {

    /**
     * The entry of a framework context that {@code {step}} reads first: the runtime's
     * {@code Step.CONTEXT_KEY} and the release-gate table the processor writes both name it.
     */
    public static final String STEP_CONTEXT_ENTRY = "io.idempotent/step";

    /**
     * The placeholder that always means the workflow's step (the runtime's {@code Step}, or the
     * framework context's {@link #STEP_CONTEXT_ENTRY}), never an argument: a model supplies
     * arguments, and a step taken from one would let it start a new operation at will.
     */
    public static final String STEP = "step";

    /** A placeholder's text without braces, split at dots. */
    public record Placeholder(String text, List<String> segments) {
    }

    /** Literal text or a placeholder. */
    public record Piece(String literal, Placeholder placeholder) {
    }

    private final List<Piece> pieces;
    private final String problem;

    private KeyTemplate(List<Piece> pieces, String problem) {
        this.pieces = pieces;
        this.problem = problem;
    }

    /** Splits {@code template}; see {@link #problem()} for what may be wrong with its braces. */
    public static KeyTemplate parse(String template) {
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
    public String problem() {
        return problem;
    }

    /** The pieces in order; empty when {@link #problem()} is not null. */
    public List<Piece> pieces() {
        return pieces;
    }

    /** Whether the template has at least one placeholder. */
    public boolean hasPlaceholder() {
        return pieces.stream().anyMatch(p -> p.placeholder() != null);
    }

    /**
     * Whether a placeholder (its text without braces, such as {@code step} or {@code invoice.id})
     * reads the workflow's step rather than an argument: its first segment is {@link #STEP},
     * whatever the method's parameters are called.
     */
    public static boolean namesStep(String placeholder) {
        int dot = placeholder.indexOf('.');
        return (dot < 0 ? placeholder : placeholder.substring(0, dot)).strip().equals(STEP);
    }

    /** Whether {@code template} is empty or blank: no key at all. */
    public static boolean isEmpty(String template) {
        return template == null || template.isBlank();
    }

    /** Whether {@code template} holds a control character, which keys may not hold. */
    public static boolean hasControlCharacter(String template) {
        return template.chars().anyMatch(Character::isISOControl);
    }

    /**
     * What is wrong with {@code template} as a key template, or null: empty, a control character,
     * unbalanced braces, no placeholder (every call would be the same operation).
     */
    public static String problemOf(String template) {
        if (isEmpty(template)) {
            return "key is empty";
        }
        if (hasControlCharacter(template)) {
            return "key \"" + template.replaceAll("\\p{Cntrl}", "?") + "\" contains a control character";
        }
        KeyTemplate parsed = parse(template);
        if (parsed.problem() != null) {
            return "key \"" + template + "\" has " + parsed.problem();
        }
        if (!parsed.hasPlaceholder()) {
            return "key \"" + template + "\" has no placeholder, so every call would be the same operation";
        }
        return null;
    }
}
