package io.idempotent.gettingstarted;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the relative links of Markdown pages without a network: every link to a file must name a
 * file or directory that exists, and every anchor ({@code #heading}, alone or after a {@code .md}
 * file) must name a heading of that page under GitHub's slug rules. Links with a scheme
 * ({@code https:}, {@code mailto:}) are not followed. Code (fenced blocks, indented lines inside
 * them, inline code spans) is not read for links or headings, as GitHub does not render it as such.
 */
final class MarkdownLinks {

    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})[ \\t]+(.*?)(?:[ \\t]+#+)?[ \\t]*$");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1", Pattern.DOTALL);
    /** {@code [text](target)} or {@code ![alt](target "title")}; the text may span lines. */
    private static final Pattern INLINE_LINK =
            Pattern.compile("!?\\[((?:[^\\[\\]]|\\[[^\\[\\]]*\\])*)\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE_DEFINITION = Pattern.compile("(?m)^ {0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s+.*)?$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    private final Map<Path, Set<String>> anchorsByPage = new HashMap<>();

    /** One link that does not resolve: the page it is on, its line, the target and why. */
    record Broken(Path page, int line, String target, String reason) {
        @Override
        public String toString() {
            return page + ":" + line + ": (" + target + ") " + reason;
        }
    }

    /** Every broken link of the given pages, in page and line order. */
    List<Broken> check(List<Path> pages) {
        List<Broken> broken = new ArrayList<>();
        for (Path page : pages) {
            broken.addAll(checkPage(page.toAbsolutePath().normalize()));
        }
        return broken;
    }

    private List<Broken> checkPage(Path page) {
        String prose = withoutCode(read(page));
        List<Broken> broken = new ArrayList<>();
        List<int[]> spans = new ArrayList<>();
        Matcher inline = INLINE_LINK.matcher(prose);
        while (inline.find()) {
            spans.add(new int[] {inline.start(2), inline.end(2)});
        }
        Matcher definition = REFERENCE_DEFINITION.matcher(prose);
        while (definition.find()) {
            spans.add(new int[] {definition.start(1), definition.end(1)});
        }
        spans.sort((a, b) -> Integer.compare(a[0], b[0]));
        for (int[] span : spans) {
            String target = prose.substring(span[0], span[1]);
            String reason = problem(page, target);
            if (reason != null) {
                broken.add(new Broken(page, lineOf(prose, span[0]), target, reason));
            }
        }
        return broken;
    }

    /** Why the target does not resolve, or null when it does. */
    private String problem(Path page, String target) {
        if (target.isEmpty() || SCHEME.matcher(target).find() || target.startsWith("//")) {
            return null;
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        int query = file.indexOf('?');
        if (query >= 0) {
            file = file.substring(0, query);
        }
        Path linked = page;
        if (!file.isEmpty()) {
            linked = page.getParent().resolve(URLDecoder.decode(file, StandardCharsets.UTF_8)).normalize();
            if (!Files.exists(linked)) {
                return "no such file: " + linked;
            }
        }
        if (anchor == null || anchor.isEmpty()) {
            return null;
        }
        if (!linked.getFileName().toString().endsWith(".md")) {
            return null; // anchors of other files (source lines, ...) are GitHub's, not headings
        }
        String wanted = URLDecoder.decode(anchor, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
        return anchorsOf(linked).contains(wanted) ? null : "no heading #" + anchor + " in " + linked.getFileName();
    }

    /** The anchors GitHub makes for a page: one per heading (duplicates numbered) and HTML anchors. */
    Set<String> anchorsOf(Path page) {
        return anchorsByPage.computeIfAbsent(page.toAbsolutePath().normalize(), p -> {
            Set<String> anchors = new LinkedHashSet<>();
            Map<String, Integer> seen = new HashMap<>();
            boolean inFence = false;
            String fence = null;
            for (String line : read(p).split("\n", -1)) {
                Matcher f = FENCE.matcher(line);
                if (f.find()) {
                    String marker = f.group(1);
                    if (!inFence) {
                        inFence = true;
                        fence = marker;
                    } else if (marker.charAt(0) == fence.charAt(0) && marker.length() >= fence.length()) {
                        inFence = false;
                    }
                    continue;
                }
                if (inFence) {
                    continue;
                }
                Matcher h = HEADING.matcher(line);
                if (h.matches()) {
                    String slug = slug(h.group(2));
                    int count = seen.merge(slug, 1, Integer::sum);
                    anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
                }
                Matcher a = HTML_ANCHOR.matcher(line);
                while (a.find()) {
                    anchors.add(a.group(1).toLowerCase(Locale.ROOT));
                }
            }
            return anchors;
        });
    }

    /**
     * GitHub's anchor for a heading: the rendered text (code marks, emphasis and link targets
     * dropped), lower-cased, every character that is not a letter, number, mark, connector, space or
     * hyphen removed, and each space made a hyphen.
     */
    static String slug(String heading) {
        String text = heading
                .replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1") // a link or image: its text
                .replaceAll("<[^>]+>", "") // inline HTML tags
                .strip()
                .toLowerCase(Locale.ROOT);
        StringBuilder slug = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (c == ' ') {
                slug.append('-');
            } else if (c == '-' || isKept(c)) {
                slug.appendCodePoint(c);
            }
        });
        return slug.toString();
    }

    /** Letters, numbers (10⁷ too), marks and connectors ({@code _}) stay in a slug. */
    private static boolean isKept(int c) {
        return switch (Character.getType(c)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                    Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.DECIMAL_DIGIT_NUMBER,
                    Character.LETTER_NUMBER, Character.OTHER_NUMBER, Character.NON_SPACING_MARK,
                    Character.COMBINING_SPACING_MARK, Character.ENCLOSING_MARK,
                    Character.CONNECTOR_PUNCTUATION -> true;
            default -> false;
        };
    }

    /** The page with its code blanked out (same length and lines), so offsets still give lines. */
    private static String withoutCode(String text) {
        StringBuilder out = new StringBuilder(text.length());
        boolean inFence = false;
        String fence = null;
        for (String line : text.split("\n", -1)) {
            Matcher f = FENCE.matcher(line);
            boolean fenceLine = f.find();
            if (fenceLine && !inFence) {
                inFence = true;
                fence = f.group(1);
                out.append(blank(line));
            } else if (inFence) {
                if (fenceLine && f.group(1).charAt(0) == fence.charAt(0) && f.group(1).length() >= fence.length()) {
                    inFence = false;
                }
                out.append(blank(line));
            } else {
                out.append(line);
            }
            out.append('\n');
        }
        out.setLength(out.length() - 1);
        Matcher span = CODE_SPAN.matcher(out.toString());
        StringBuilder prose = new StringBuilder(out);
        while (span.find()) {
            for (int i = span.start(); i < span.end(); i++) {
                if (prose.charAt(i) != '\n') {
                    prose.setCharAt(i, ' ');
                }
            }
        }
        return prose.toString();
    }

    private static String blank(String line) {
        return " ".repeat(line.length());
    }

    private static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static String read(Path page) {
        try {
            return Files.readString(page).replace("\r\n", "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
