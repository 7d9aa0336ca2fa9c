package io.idempotent.gettingstarted;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
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
 *
 * <p>A page's table of contents, the list right under its {@code ## Contents} heading, is checked
 * too: besides each entry's anchor (a link like any other), every heading of level 2 or 3 below the
 * list must have its entry, in the page's order, so that a section added, renamed or moved without
 * its entry fails the build as a broken link does.
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
    private static final Pattern LIST_ITEM = Pattern.compile("^\\s*(?:[-*+]|\\d+[.)])\\s+(.*)$");
    /** The heading whose list is a page's table of contents. */
    static final String CONTENTS = "Contents";

    private final Map<Path, Set<String>> anchorsByPage = new HashMap<>();

    /** A heading outside code: its level, its anchor (duplicates numbered) and its line. */
    record Heading(int level, String text, String anchor, int line) {
    }

    /** An entry of a table of contents: the anchor it links to on its own page, and its line. */
    record Entry(String anchor, int line) {
    }

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
            Path normalized = page.toAbsolutePath().normalize();
            List<Broken> ofPage = new ArrayList<>(checkPage(normalized));
            ofPage.addAll(checkContents(normalized));
            ofPage.sort(Comparator.comparingInt(Broken::line));
            broken.addAll(ofPage);
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
            headings(p).forEach(h -> anchors.add(h.anchor()));
            for (String line : withoutFences(read(p)).split("\n", -1)) {
                Matcher a = HTML_ANCHOR.matcher(line);
                while (a.find()) {
                    anchors.add(a.group(1).toLowerCase(Locale.ROOT));
                }
            }
            return anchors;
        });
    }

    /** The page's headings outside fenced code, in page order, with GitHub's anchors. */
    List<Heading> headings(Path page) {
        List<Heading> headings = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        String[] lines = withoutFences(read(page)).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher h = HEADING.matcher(lines[i]);
            if (h.matches()) {
                String slug = slug(h.group(2));
                int count = seen.merge(slug, 1, Integer::sum);
                String anchor = count == 1 ? slug : slug + "-" + (count - 1);
                headings.add(new Heading(h.group(1).length(), h.group(2).strip(), anchor, i + 1));
            }
        }
        return headings;
    }

    /**
     * The entries of the page's table of contents: the list items right under its {@code ##
     * Contents} heading, each with the anchor of its first link ({@code #anchor}; an entry that links
     * elsewhere has an empty anchor). Empty when the page has no such heading.
     */
    List<Entry> contentsOf(Path page) {
        Heading contents = headings(page).stream()
                .filter(h -> h.level() == 2 && h.text().equals(CONTENTS)).findFirst().orElse(null);
        List<Entry> entries = new ArrayList<>();
        if (contents == null) {
            return entries;
        }
        String[] lines = withoutCode(read(page)).split("\n", -1);
        int i = contents.line(); // the line after the heading (lines are counted from 1)
        while (i < lines.length && lines[i].isBlank()) {
            i++;
        }
        for (; i < lines.length; i++) {
            Matcher item = LIST_ITEM.matcher(lines[i]);
            if (!item.matches()) {
                break;
            }
            Matcher link = INLINE_LINK.matcher(item.group(1));
            String target = link.find() ? link.group(2) : "";
            String anchor = target.startsWith("#")
                    ? URLDecoder.decode(target.substring(1), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT)
                    : "";
            entries.add(new Entry(anchor, i + 1));
        }
        return entries;
    }

    /**
     * A table of contents that leaves out a heading of level 2 or 3 below it, lists one elsewhere
     * than in page order, or has an entry that is no link to this page. An entry whose anchor names
     * no heading is the link check's (it is a broken link like any other).
     */
    private List<Broken> checkContents(Path page) {
        List<Entry> entries = contentsOf(page);
        List<Broken> broken = new ArrayList<>();
        if (entries.isEmpty()) {
            headings(page).stream().filter(h -> h.level() == 2 && h.text().equals(CONTENTS)).findFirst()
                    .ifPresent(h -> broken.add(new Broken(page, h.line(), "", "a Contents heading without its list")));
            return broken;
        }
        int listEnd = entries.get(entries.size() - 1).line();
        List<Heading> sections = headings(page).stream()
                .filter(h -> h.line() > listEnd && (h.level() == 2 || h.level() == 3)).toList();
        Set<String> listed = new LinkedHashSet<>();
        for (Entry entry : entries) {
            if (entry.anchor().isEmpty()) {
                broken.add(new Broken(page, entry.line(), "", "a table of contents entry must link to a heading of its page"));
            }
            listed.add(entry.anchor());
        }
        List<String> order = new ArrayList<>();
        for (Heading section : sections) {
            if (!listed.contains(section.anchor())) {
                broken.add(new Broken(page, section.line(), "#" + section.anchor(),
                        "heading \"" + section.text() + "\" is missing from the table of contents"));
            } else {
                order.add(section.anchor());
            }
        }
        List<Entry> known = entries.stream().filter(e -> order.contains(e.anchor())).toList();
        for (int k = 0; k < known.size(); k++) {
            if (!known.get(k).anchor().equals(order.get(k))) {
                broken.add(new Broken(page, known.get(k).line(), "#" + known.get(k).anchor(),
                        "table of contents out of the page's order: #" + order.get(k) + " comes first"));
                break;
            }
        }
        return broken;
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
        String out = withoutFences(text);
        Matcher span = CODE_SPAN.matcher(out);
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

    /** The page with its fenced blocks, fences included, blanked out (same length and lines). */
    private static String withoutFences(String text) {
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
        return out.toString();
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
