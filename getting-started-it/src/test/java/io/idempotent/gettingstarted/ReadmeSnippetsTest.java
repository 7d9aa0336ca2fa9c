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
 * The Maven instructions users read and the test projects that the build runs are one text: every
 * xml block of the README's "Using it in your project" section, and every xml block of
 * docs/getting-started.md, must appear, line for line (indentation aside), in a test project's
 * pom.xml, which the invoker then builds and runs: the blocks of the page's build-plugin section in
 * the build-plugin project's, the others in the getting-started project's. The Gradle block of the
 * build-plugin section is not run (no Gradle here); it must name what the Maven block names. The
 * framework sections of docs/frameworks.md are parts of their projects too: Spring Boot's of
 * examples/spring-boot-agent, Quarkus's and Micronaut's of the Quarkus and Micronaut test projects.
 */
class ReadmeSnippetsTest {

    private static final Path README = Path.of("..", "README.md");
    private static final Path GETTING_STARTED = Path.of("..", "docs", "getting-started.md");
    private static final Path POM = Path.of("src", "it", "getting-started", "pom.xml");
    private static final Path BUILD_PLUGIN_POM = Path.of("src", "it", "build-plugin", "pom.xml");
    private static final String BUILD_PLUGIN_SECTION = "\n## Without the agent: weaving at build time";
    private static final Pattern KOTLIN_BLOCK = Pattern.compile("(?s)```kotlin\\n(.*?)```");
    private static final Path KOTLIN = Path.of("..", "docs", "kotlin.md");
    private static final Path KOTLIN_POM = Path.of("src", "it", "kotlin", "pom.xml");
    private static final Pattern XML_BLOCK = Pattern.compile("(?s)```xml\\n(.*?)```");
    private static final Path FRAMEWORKS = Path.of("..", "docs", "frameworks.md");
    /** Under spring-boot-starter-parent, as a Boot project is: the blocks' missing versions come from Boot. */
    private static final Path BOOT_POM = Path.of("src", "it", "spring-boot-agent", "pom.xml");
    private static final Path QUARKUS_POM = Path.of("src", "it", "quarkus", "pom.xml");
    private static final Path MICRONAUT_POM = Path.of("src", "it", "micronaut", "pom.xml");
    /** A plugin or the PostgreSQL driver with a literal version: what a framework's parent or BOM manages. */
    private static final Pattern PINNED = Pattern.compile(
            "<artifactId>(maven-compiler-plugin|maven-dependency-plugin|postgresql)</artifactId>\\s*<version>[^$]");

    @Test
    void everyMavenBlockOfTheReadmeIsPartOfTheTestProjectUnchanged() throws IOException {
        List<String> blocks = readmeBlocks();

        // properties and dependencies, the compiler, the agent copy
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(3);
        assertEveryBlockIsInTheTestProject(blocks, README, POM);
    }

    @Test
    void everyMavenBlockOfTheGettingStartedPageIsPartOfTheTestProjectUnchanged() throws IOException {
        List<String> blocks = gettingStartedBlocks();

        // properties and dependencies, the compiler, the agent copy, exec
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(4);
        assertEveryBlockIsInTheTestProject(blocks, GETTING_STARTED, POM);
    }

    @Test
    void theBuildPluginBlockOfTheGettingStartedPageIsPartOfTheBuildPluginProjectUnchanged() throws IOException {
        List<String> blocks = xmlBlocks(buildPluginSection());

        assertThat(blocks).singleElement().asString().contains("<artifactId>byte-buddy-maven-plugin</artifactId>",
                "<plugin>io.idempotent.build.IdempotentPlugin</plugin>", "<artifactId>idempotent-build</artifactId>");
        assertEveryBlockIsInTheTestProject(blocks, GETTING_STARTED, BUILD_PLUGIN_POM);
    }

    @Test
    void theBuildPluginsGradleBlockNamesWhatTheMavenBlockNames() throws IOException {
        Matcher gradle = KOTLIN_BLOCK.matcher(buildPluginSection());
        assertThat(gradle.find()).as("a Gradle block in the build-plugin section").isTrue();
        assertThat(gradle.group(1)).contains("id(\"net.bytebuddy.byte-buddy-gradle-plugin\") version \"1.17.8\"",
                "io.idempotent.build.IdempotentPlugin", "io.idempotent:idempotent-build:0.1.0-SNAPSHOT",
                "annotationProcessor(\"io.idempotent:idempotent-processor:0.1.0-SNAPSHOT\")");
    }

    @Test
    void everyMavenBlockOfTheKotlinPageIsPartOfTheKotlinTestProjectUnchanged() throws IOException {
        List<String> blocks = xmlBlocks(Files.readString(KOTLIN));

        // properties, dependencies, the Kotlin plugin with kapt, the compiler after it
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(4);
        assertEveryBlockIsInTheTestProject(blocks, KOTLIN, KOTLIN_POM);
        // mapDiagnosticLocations: the kotlin-gate test project checks that gate errors then name the .kt line
        assertThat(String.join("\n", blocks)).contains("<goal>kapt</goal>", "jackson-module-kotlin",
                "<mapDiagnosticLocations>true</mapDiagnosticLocations>");
    }

    @Test
    void theSpringBootBlocksOfTheFrameworksPageArePartOfTheBootTestProjectUnchangedAndPinNothingBootManages()
            throws IOException {
        List<String> blocks = xmlBlocks(section(FRAMEWORKS, "\n### Spring Boot: Maven and the fat jar"));

        // the version property, the dependencies, the compiler
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(3);
        assertEveryBlockIsInTheTestProject(blocks, FRAMEWORKS, BOOT_POM);
        assertThat(String.join("\n", blocks)).contains("<artifactId>postgresql</artifactId>",
                "<artifactId>maven-compiler-plugin</artifactId>").doesNotContainPattern(PINNED);
        // The project itself builds under Boot's parent with no version of its own for what Boot manages.
        assertThat(Files.readString(BOOT_POM)).contains("<artifactId>spring-boot-starter-parent</artifactId>")
                .doesNotContainPattern(PINNED)
                .doesNotContainPattern("<artifactId>(spring-boot-maven-plugin|exec-maven-plugin)</artifactId>\\s*<version>");
    }

    @Test
    void theQuarkusBlocksOfTheFrameworksPageArePartOfTheQuarkusTestProjectUnchanged() throws IOException {
        List<String> blocks = xmlBlocks(section(FRAMEWORKS, "\n## Quarkus"));

        // properties, dependencies, the compiler (its version a property, as Quarkus projects have it)
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(3);
        assertEveryBlockIsInTheTestProject(blocks, FRAMEWORKS, QUARKUS_POM);
        assertThat(String.join("\n", blocks)).contains("<version>${compiler-plugin.version}</version>")
                .doesNotContainPattern(PINNED);
    }

    @Test
    void theMicronautBlockOfTheFrameworksPageIsPartOfTheMicronautTestProjectUnchanged() throws IOException {
        List<String> blocks = xmlBlocks(section(FRAMEWORKS, "\n## Micronaut"));

        assertThat(blocks).singleElement().asString().contains(
                "<annotationProcessorPaths combine.children=\"append\">", "<artifactId>micronaut-inject-java</artifactId>",
                "<artifactId>idempotent-processor</artifactId>");
        assertEveryBlockIsInTheTestProject(blocks, FRAMEWORKS, MICRONAUT_POM);
    }

    @Test
    void theFrameworksPageSaysThatAnnotationProcessorPathsMustListTheOtherProcessors() throws IOException {
        assertThat(section(FRAMEWORKS, "\n### Spring Boot: Maven and the fat jar")).contains(
                "`annotationProcessorPaths` turns off the discovery of every other processor", "Lombok", "MapStruct");
    }

    @Test
    void theReadmeSaysWhichPostgresqlDriverToAdd() throws IOException {
        assertThat(String.join("\n", readmeBlocks())).contains("<artifactId>postgresql</artifactId>");
    }

    @Test
    void theGettingStartedPageSaysWhichPostgresqlDriverToAdd() throws IOException {
        assertThat(String.join("\n", gettingStartedBlocks())).contains("<artifactId>postgresql</artifactId>");
    }

    private static void assertEveryBlockIsInTheTestProject(List<String> blocks, Path page, Path project)
            throws IOException {
        List<String> pom = normalised(Files.readString(project));
        for (String block : blocks) {
            List<String> lines = normalised(block);
            assertThat(Collections.indexOfSubList(pom, lines))
                    .as("this block of %s is not, unchanged, in %s:%n%s", page, project, block)
                    .isNotNegative();
        }
    }

    /** The xml blocks of the README's section "Using it in your project" (its subsections too). */
    private static List<String> readmeBlocks() throws IOException {
        String readme = Files.readString(README);
        int start = readme.indexOf("\n## Using it in your project");
        assertThat(start).as("the README's section \"Using it in your project\"").isNotNegative();
        int end = readme.indexOf("\n## ", start + 1);
        return xmlBlocks(readme.substring(start, end < 0 ? readme.length() : end));
    }

    /** Every xml block of docs/getting-started.md but its build-plugin section's: the page is the Maven instructions' home. */
    private static List<String> gettingStartedBlocks() throws IOException {
        String page = Files.readString(GETTING_STARTED);
        String section = buildPluginSection();
        int start = page.indexOf(section);
        return xmlBlocks(page.substring(0, start) + page.substring(start + section.length()));
    }

    /** The page's section on the build plugin, up to the next section. */
    private static String buildPluginSection() throws IOException {
        String page = Files.readString(GETTING_STARTED);
        int start = page.indexOf(BUILD_PLUGIN_SECTION);
        assertThat(start).as("the section \"%s\" of %s", BUILD_PLUGIN_SECTION.strip(), GETTING_STARTED)
                .isNotNegative();
        int end = page.indexOf("\n## ", start + 1);
        return page.substring(start, end < 0 ? page.length() : end);
    }

    /** The section of {@code page} that starts with {@code heading}, up to the next heading of its level or above. */
    private static String section(Path page, String heading) throws IOException {
        String text = Files.readString(page);
        int start = text.indexOf(heading);
        assertThat(start).as("the section \"%s\" of %s", heading.strip(), page).isNotNegative();
        String level = heading.strip().substring(0, heading.strip().indexOf(' '));
        int end = text.length();
        for (int h = 2; h <= level.length(); h++) {
            int next = text.indexOf("\n" + "#".repeat(h) + " ", start + 1);
            if (next >= 0) {
                end = Math.min(end, next);
            }
        }
        return text.substring(start, end);
    }

    private static List<String> xmlBlocks(String text) {
        List<String> blocks = new ArrayList<>();
        Matcher m = XML_BLOCK.matcher(text);
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
