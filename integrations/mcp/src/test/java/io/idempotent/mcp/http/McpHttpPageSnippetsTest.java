package io.idempotent.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/mcp-http.md shows code this module compiles: every java block of the page appears, line
 * for line (indentation and blank lines aside), in one test source file of this package, where
 * McpStreamableHttpIT runs the server (as ApprovalsPageSnippetsTest does for docs/approvals.md).
 */
class McpHttpPageSnippetsTest {

    private static final Path PAGE = Path.of("..", "..", "docs", "mcp-http.md");
    private static final Path SOURCES = Path.of("src", "test", "java", "io", "idempotent", "mcp", "http");
    private static final Pattern JAVA_BLOCK = Pattern.compile("(?s)```java\\n(.*?)```");

    @Test
    void everyJavaBlockOfTheHttpPageIsPartOfACompiledSourceUnchanged() throws IOException {
        List<String> blocks = new ArrayList<>();
        Matcher m = JAVA_BLOCK.matcher(Files.readString(PAGE));
        while (m.find()) {
            blocks.add(m.group(1));
        }
        // the tool, the servlet server, the container; the starters' sync, async and stateless beans
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(4);

        List<List<String>> sources = new ArrayList<>();
        try (Stream<Path> files = Files.list(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                sources.add(normalised(Files.readString(file)));
            }
        }
        for (String block : blocks) {
            List<String> lines = normalised(block);
            assertThat(sources.stream().anyMatch(source -> Collections.indexOfSubList(source, lines) >= 0))
                    .as("this block of %s is not, unchanged, in a source file under %s:%n%s", PAGE, SOURCES, block)
                    .isTrue();
        }
    }

    private static List<String> normalised(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                lines.add(line.strip());
            }
        }
        return lines;
    }
}
