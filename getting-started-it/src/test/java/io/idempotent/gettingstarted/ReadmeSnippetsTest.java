package io.idempotent.gettingstarted;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's Maven instructions and the test project that the build runs are one text: every
 * xml block of the README's "Using it in your project" section must appear, line for line
 * (indentation aside), in the test project's pom.xml, which the invoker then builds and runs.
 */
class ReadmeSnippetsTest {

    private static final Path README = Path.of("..", "README.md");
    private static final Path POM = Path.of("src", "it", "getting-started", "pom.xml");
    private static final Pattern XML_BLOCK = Pattern.compile("(?s)```xml\\n(.*?)```");

    @Test
    void everyMavenBlockOfTheReadmeIsPartOfTheTestProjectUnchanged() throws IOException {
        List<String> blocks = mavenBlocks();
        List<String> pom = normalised(Files.readString(POM));

        // properties and dependencies, the compiler, the agent copy, exec
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(4);
        for (String block : blocks) {
            List<String> lines = normalised(block);
            assertThat(Collections.indexOfSubList(pom, lines))
                    .as("this README block is not, unchanged, in %s:%n%s", POM, block)
                    .isNotNegative();
        }
    }

    @Test
    void theReadmeSaysWhichPostgresqlDriverToAdd() throws IOException {
        assertThat(String.join("\n", mavenBlocks())).contains("<artifactId>postgresql</artifactId>");
    }

    private static List<String> mavenBlocks() throws IOException {
        String readme = Files.readString(README);
        int start = readme.indexOf("\n## Using it in your project");
        assertThat(start).as("the README's section \"Using it in your project\"").isNotNegative();
        int end = readme.indexOf("\n## ", start + 1);
        String section = readme.substring(start, end < 0 ? readme.length() : end);
        List<String> blocks = new ArrayList<>();
        Matcher m = XML_BLOCK.matcher(section);
        while (m.find()) {
            blocks.add(m.group(1));
        }
        return blocks;
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
