package io.idempotent.policy.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * One tool of a release-gate table: its name, the canonical name of its class and its method as
 * the processor wrote it, {@code name(Type param, ...)} with each type as javac renders it
 * (generic arguments, type-use annotations, {@code ...} for varargs). The agent finds the method
 * by {@link #methodName()} and {@link #parameterTypes()}. Not for users.
 *
 * @param name the tool's name
 * @param className the canonical name of the class that declares the method
 * @param method the method's name and parameters
 * @param store the store the tool's operations live in ({@link StoreNames#DEFAULT} when the table
 *     names none)
 * @param transactional whether the table says {@code "transactional": true} (its effect commits
 *     with the record, so its store must be able to run claim, body and completion in one transaction)
 */
public record ListedTool(String name, String className, String method, String store, boolean transactional) {

    /** A tool that is not transactional. */
    public ListedTool(String name, String className, String method, String store) {
        this(name, className, method, store, false);
    }

    /** A tool on the default store. */
    public ListedTool(String name, String className, String method) {
        this(name, className, method, StoreNames.DEFAULT);
    }

    /** The method's name. */
    public String methodName() {
        int open = method.indexOf('(');
        return (open < 0 ? method : method.substring(0, open)).strip();
    }

    /**
     * The method's parameter types, erased as the JVM sees them but in source form: canonical
     * names, {@code []} for arrays and varargs, a type variable by its name
     * ({@code java.util.Map<K, V> m} is {@code java.util.Map}, {@code T[] all} is {@code T[]}).
     *
     * @throws IllegalArgumentException if {@link #method()} is not {@code name(...)}
     */
    public List<String> parameterTypes() {
        int open = method.indexOf('(');
        if (open < 0 || !method.endsWith(")")) {
            throw new IllegalArgumentException("tool " + name + ": method \"" + method + "\" is not name(parameters)");
        }
        List<String> types = new ArrayList<>();
        for (String parameter : topLevelParts(method.substring(open + 1, method.length() - 1))) {
            types.add(erased(parameter));
        }
        return List.copyOf(types);
    }

    /** The declaration {@code Type name} without its name, erased. */
    private static String erased(String parameter) {
        String type = withoutAnnotations(parameter).strip();
        int space = lastTopLevelSpace(type);
        if (space < 0) {
            throw new IllegalArgumentException("parameter \"" + parameter + "\" is not \"Type name\"");
        }
        type = withoutTypeArguments(type.substring(0, space));
        return type.replace("...", "[]").replaceAll("\\s+", "");
    }

    /** Splits at the commas outside of angle brackets and parentheses. */
    private static List<String> topLevelParts(String text) {
        List<String> parts = new ArrayList<>();
        if (text.isBlank()) {
            return parts;
        }
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '<' || c == '(') {
                depth++;
            } else if (c == '>' || c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
    }

    private static int lastTopLevelSpace(String type) {
        int depth = 0;
        for (int i = type.length() - 1; i >= 0; i--) {
            char c = type.charAt(i);
            if (c == '>') {
                depth++;
            } else if (c == '<') {
                depth--;
            } else if (Character.isWhitespace(c) && depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /** Drops type-use annotations, {@code @a.B} and {@code @a.B(...)}, with the blank after them. */
    private static String withoutAnnotations(String text) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c != '@') {
                out.append(c);
                i++;
                continue;
            }
            i++;
            while (i < text.length() && (Character.isJavaIdentifierPart(text.charAt(i)) || text.charAt(i) == '.')) {
                i++;
            }
            if (i < text.length() && text.charAt(i) == '(') {
                int depth = 0;
                do {
                    char p = text.charAt(i++);
                    depth += p == '(' ? 1 : p == ')' ? -1 : 0;
                } while (i < text.length() && depth > 0);
            }
            while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
        }
        return out.toString();
    }

    private static String withoutTypeArguments(String type) {
        StringBuilder out = new StringBuilder();
        int depth = 0;
        for (char c : type.toCharArray()) {
            if (c == '<') {
                depth++;
            } else if (c == '>') {
                depth--;
            } else if (depth == 0) {
                out.append(c);
            }
        }
        return out.toString();
    }
}
