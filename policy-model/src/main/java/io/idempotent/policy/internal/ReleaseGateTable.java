package io.idempotent.policy.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The release-gate table the processor writes, {@value #RESOURCE}: a JSON object whose
 * {@code "tools"} array holds one object per tool. The agent reads how many tools it lists by
 * the JSON structure, not by the writer's layout; the runtime reads each tool's name, class and
 * store ({@link #tools}) to find two classes that claim one tool name on one store. Not for users.
 */
public final class ReleaseGateTable {

    /** Where the table is, in the build output and on the class path. */
    public static final String RESOURCE = "META-INF/idempotent/tools.json";

    private ReleaseGateTable() {
    }

    /**
     * The number of entries in the top-level {@code "tools"} array of {@code json}.
     *
     * @throws IllegalArgumentException if {@code json} is not such a table
     */
    public static int countTools(String json) {
        Scanner s = new Scanner(json);
        s.expect('{');
        int count = -1;
        if (!s.consume('}')) {
            do {
                String name = s.string();
                s.expect(':');
                if (name.equals("tools")) {
                    count = s.countArray();
                } else {
                    s.skipValue();
                }
            } while (s.consume(','));
            s.expect('}');
        }
        s.end();
        if (count < 0) {
            throw new IllegalArgumentException("no \"tools\" array");
        }
        return count;
    }

    /**
     * One tool of a table: its name, the qualified (canonical) name of the class that declares it,
     * its method as the table shows it, and its store ({@link StoreNames#DEFAULT} when absent).
     * Fields of other types, and fields a newer processor adds, are skipped.
     */
    public record Tool(String name, String className, String method, String store) {
    }

    /**
     * The tools of the top-level {@code "tools"} array of {@code json}, in the table's order.
     *
     * @throws IllegalArgumentException if {@code json} is not such a table, or a tool has no
     *     {@code "name"} or {@code "class"}
     */
    public static List<Tool> tools(String json) {
        Scanner s = new Scanner(json);
        s.expect('{');
        List<Tool> tools = null;
        if (!s.consume('}')) {
            do {
                String name = s.string();
                s.expect(':');
                if (name.equals("tools")) {
                    tools = toolArray(s);
                } else {
                    s.skipValue();
                }
            } while (s.consume(','));
            s.expect('}');
        }
        s.end();
        if (tools == null) {
            throw new IllegalArgumentException("no \"tools\" array");
        }
        return List.copyOf(tools);
    }

    private static List<Tool> toolArray(Scanner s) {
        List<Tool> tools = new ArrayList<>();
        s.expect('[');
        if (s.consume(']')) {
            return tools;
        }
        do {
            tools.add(tool(s, tools.size()));
        } while (s.consume(','));
        s.expect(']');
        return tools;
    }

    private static Tool tool(Scanner s, int index) {
        String name = null;
        String className = null;
        String method = null;
        String store = null;
        s.expect('{');
        if (!s.consume('}')) {
            do {
                String field = s.string();
                s.expect(':');
                String text = s.peek() == '"' ? s.string() : null;
                if (text == null) {
                    s.skipValue();
                    continue;
                }
                switch (field) {
                    case "name" -> name = text;
                    case "class" -> className = text;
                    case "method" -> method = text;
                    case "store" -> store = text;
                    default -> {
                        // another answer of the release gate: not needed here
                    }
                }
            } while (s.consume(','));
            s.expect('}');
        }
        if (name == null || className == null) {
            throw new IllegalArgumentException("tool " + index + " has no \"name\" or no \"class\"");
        }
        return new Tool(name, className, method, store == null ? StoreNames.DEFAULT : store);
    }

    /** Just enough of a JSON reader to walk the table's structure. */
    private static final class Scanner {
        private final String text;
        private int at;

        Scanner(String text) {
            this.text = text;
        }

        void space() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        boolean consume(char c) {
            space();
            if (at < text.length() && text.charAt(at) == c) {
                at++;
                return true;
            }
            return false;
        }

        void expect(char c) {
            if (!consume(c)) {
                throw new IllegalArgumentException("expected '" + c + "' at offset " + at);
            }
        }

        /** The next character after white space, or 0 at the end. */
        char peek() {
            space();
            return at < text.length() ? text.charAt(at) : 0;
        }

        void end() {
            space();
            if (at != text.length()) {
                throw new IllegalArgumentException("unexpected text at offset " + at);
            }
        }

        String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (at < text.length()) {
                char c = text.charAt(at++);
                if (c == '"') {
                    return b.toString();
                }
                if (c == '\\') {
                    if (at >= text.length()) {
                        break;
                    }
                    char e = text.charAt(at++);
                    if (e == 'u') {
                        if (at + 4 > text.length()) {
                            break;
                        }
                        b.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                    } else {
                        b.append(switch (e) {
                            case 'n' -> '\n';
                            case 't' -> '\t';
                            case 'r' -> '\r';
                            case 'b' -> '\b';
                            case 'f' -> '\f';
                            default -> e;
                        });
                    }
                } else {
                    b.append(c);
                }
            }
            throw new IllegalArgumentException("unterminated string");
        }

        int countArray() {
            expect('[');
            if (consume(']')) {
                return 0;
            }
            int n = 0;
            do {
                skipValue();
                n++;
            } while (consume(','));
            expect(']');
            return n;
        }

        void skipValue() {
            space();
            if (at >= text.length()) {
                throw new IllegalArgumentException("a value is missing at the end");
            }
            char c = text.charAt(at);
            if (c == '"') {
                string();
            } else if (c == '[') {
                countArray();
            } else if (c == '{') {
                at++;
                if (!consume('}')) {
                    do {
                        string();
                        expect(':');
                        skipValue();
                    } while (consume(','));
                    expect('}');
                }
            } else {
                int start = at;
                while (at < text.length() && "{}[],:\" \t\r\n".indexOf(text.charAt(at)) < 0) {
                    at++;
                }
                String literal = text.substring(start, at);
                if (!literal.matches("true|false|null|-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?")) {
                    throw new IllegalArgumentException("not a JSON value at offset " + start);
                }
            }
        }
    }
}
