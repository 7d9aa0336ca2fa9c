package io.idempotent.policy.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The release-gate table the processor writes, {@value #RESOURCE}: a JSON object whose
 * {@code "tools"} array holds one object per tool. The agent reads how many tools it lists, and
 * which class and method each one is, by the JSON structure, not by the writer's layout; the
 * runtime reads each tool's name, class and store to find two classes that claim one tool name on
 * one store. Not for users.
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
     * The tools of the top-level {@code "tools"} array of {@code json}, in the table's order.
     *
     * @throws IllegalArgumentException if {@code json} is not such a table, or an entry does not
     *     name its tool, class and method
     */
    public static List<ListedTool> tools(String json) {
        Scanner s = new Scanner(json);
        s.expect('{');
        List<ListedTool> tools = null;
        if (!s.consume('}')) {
            do {
                String name = s.string();
                s.expect(':');
                if (name.equals("tools")) {
                    tools = s.toolArray();
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

    /**
     * The tools of the table {@code in} holds, read as UTF-8 (the processor writes it so), in the
     * table's order; the stream is read to its end, not closed.
     *
     * @throws IOException if the stream cannot be read
     * @throws IllegalArgumentException as {@link #tools(String)}
     */
    public static List<ListedTool> tools(InputStream in) throws IOException {
        return tools(new String(in.readAllBytes(), StandardCharsets.UTF_8));
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

        List<ListedTool> toolArray() {
            expect('[');
            List<ListedTool> tools = new ArrayList<>();
            if (consume(']')) {
                return tools;
            }
            do {
                tools.add(tool());
            } while (consume(','));
            expect(']');
            return tools;
        }

        /**
         * One entry: its string fields name, class, method and store, and whether
         * {@code "transactional"} is {@code true}; every other field is skipped.
         */
        private ListedTool tool() {
            int start = at;
            expect('{');
            String name = null;
            String className = null;
            String method = null;
            String store = null;
            boolean transactional = false;
            if (!consume('}')) {
                do {
                    String field = string();
                    expect(':');
                    space();
                    boolean text = at < this.text.length() && this.text.charAt(at) == '"';
                    switch (field) {
                        case "name" -> name = text ? string() : skipped();
                        case "class" -> className = text ? string() : skipped();
                        case "method" -> method = text ? string() : skipped();
                        case "store" -> store = text ? string() : skipped();
                        case "transactional" -> {
                            transactional = this.text.startsWith("true", at);
                            skipValue();
                        }
                        default -> skipValue();
                    }
                } while (consume(','));
                expect('}');
            }
            if (name == null || className == null || method == null) {
                throw new IllegalArgumentException("the tool at offset " + start + " does not name its"
                        + " \"name\", \"class\" and \"method\"");
            }
            return new ListedTool(name, className, method, store == null ? StoreNames.DEFAULT : store,
                    transactional);
        }

        private String skipped() {
            skipValue();
            return null;
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
