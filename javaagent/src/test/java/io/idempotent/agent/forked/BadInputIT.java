package io.idempotent.agent.forked;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent's bad inputs, one row each: a mistake a user can make in how the JVM is started with
 * the agent, run in a forked JVM (the probe calls {@code ProbeTools.charge} for one order, on the
 * embedded default store), and what the JVM must show: the body never runs twice for one
 * operation, and never unwrapped; the agent says what it did. The next mistake is one row.
 */
class BadInputIT {

    private static final String AGENT = "[idempotent-agent] ";
    private static final String LISTED = " listed in META-INF/idempotent/tools.json";

    @TempDir
    Path dir;

    /** A mistake: how the probe is started (working directory, order), and what it must then show. */
    record BadInput(String mistake, BiFunction<Path, String, ForkedProbe> start, Expectation expect) {
        @Override
        public String toString() {
            return mistake;
        }
    }

    /** What a finished probe must show, given its working directory and order. */
    interface Expectation {
        void check(ForkedProbe probe, Path dir, String order);
    }

    static Stream<BadInput> badInputs() {
        return Stream.of(
                new BadInput("the annotations jar left off the run-time class path (runtime present)",
                        (dir, order) -> ForkedProbe.startWithClassPath(withoutAnnotations(), Jdk.current(),
                                StoreTarget.H2_DEFAULT, dir, "call", order, "500", "2"),
                        BadInputIT::refusedNamingTheAnnotationsJar),
                new BadInput("-javaagent given twice",
                        (dir, order) -> ForkedProbe.startWithJvmOptions(List.of(agentOption(), agentOption()),
                                Map.of(), ForkedProbe.applicationClassPath(), Jdk.current(), StoreTarget.H2_DEFAULT,
                                dir, "call", order, "500", "2"),
                        BadInputIT::wrappedOnceWithOneWarning),
                new BadInput("-javaagent given twice, on two copies of the jar",
                        (dir, order) -> ForkedProbe.startWithJvmOptions(List.of(agentOption(),
                                "-javaagent:" + copyOfTheAgent(dir)), Map.of(), ForkedProbe.applicationClassPath(),
                                Jdk.current(), StoreTarget.H2_DEFAULT, dir, "call", order, "500", "2"),
                        BadInputIT::wrappedOnceWithOneWarning),
                new BadInput("-javaagent in JAVA_TOOL_OPTIONS and on the command line",
                        (dir, order) -> ForkedProbe.startWithJvmOptions(List.of(agentOption()),
                                Map.of("JAVA_TOOL_OPTIONS", agentOption()), ForkedProbe.applicationClassPath(),
                                Jdk.current(), StoreTarget.H2_DEFAULT, dir, "call", order, "500", "2"),
                        BadInputIT::wrappedOnceWithOneWarning));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void eachBadInputIsRefusedOrHarmlessAndSaidInOneLine(BadInput input) {
        String order = "order_" + UUID.randomUUID().toString().substring(0, 8);
        ForkedProbe probe = input.start().apply(dir, order).finish();
        assertThat(probe.exitCode()).as(probe.output()).isZero();
        // No Byte Buddy transformation failed, whatever the mistake.
        assertThat(probe.lines()).as(probe.output()).anyMatch(l -> l.matches("AGENT transformed=\\d+ errors=0"));
        input.expect().check(probe, dir, order);
    }

    /**
     * Without idempotent-annotations the tool's annotation cannot be resolved, but the release-gate
     * table names the method: it is wrapped, and its generated binding, which needs the annotations'
     * {@code Retry}, cannot load, so each call is refused with the jar to add. The body never runs.
     */
    private static void refusedNamingTheAnnotationsJar(ForkedProbe probe, Path dir, String order) {
        assertThat(probe.output()).contains(AGENT + "started: wrapped 12 tool method(s), 12" + LISTED + "; the runtime");
        assertThat(probe.output()).contains(AGENT + "ERROR io.idempotent.it.probe.ProbeTools has tools, but"
                + " idempotent-annotations is not visible from its class loader");
        assertThat(probe.thrown()).as(probe.output()).containsExactly("io.idempotent.runtime.MissingBindingException",
                "io.idempotent.runtime.MissingBindingException");
        assertThat(probe.outcomes()).allSatisfy(o -> assertThat(o).contains("io.idempotent.it.probe.ProbeTools")
                .contains("io.idempotent:idempotent-annotations is not on its class path at run time"));
        assertThat(effects(dir)).isEmpty();
    }

    /** The second installation does nothing but say so: one effect, the real result, one attempt. */
    private static void wrappedOnceWithOneWarning(ForkedProbe probe, Path dir, String order) {
        assertThat(probe.results()).as(probe.output()).hasSize(2).allMatch(r -> r.startsWith("charged " + order
                + " 500 by pid " + probe.pid())).containsOnly(probe.results().get(0));
        assertThat(effects(dir)).containsExactly("charge " + order + " 500");
        assertThat(StoreTarget.H2_DEFAULT.row(dir, "charge:" + order)).hasValueSatisfying(row -> assertThat(row)
                .as("status and attempts").startsWith("completed", 1));
        assertThat(probe.lines()).as(probe.output()).filteredOn(l -> l.startsWith(AGENT + "WARNING")).singleElement()
                .satisfies(l -> assertThat(l).contains("already installed in this JVM")
                        .contains("this second installation does nothing"));
        // Issue 43: nothing is configured, and the start line says which store that means.
        assertThat(probe.lines()).filteredOn(l -> l.startsWith(AGENT + "started")).singleElement()
                .satisfies(l -> assertThat(l).contains("; the runtime uses the embedded H2 store"
                        + " ./.idempotent/operations, as no store URL is configured"));
        assertThat(probe.output()).doesNotContain(AGENT + "ERROR");
    }

    /** The application class path without idempotent-annotations (jar or module output). */
    private static String withoutAnnotations() {
        String classPath = ForkedProbe.classPathOf(entry -> !entry.contains("idempotent-annotations")
                && !entry.endsWith(Path.of("annotations", "target", "classes").toString()));
        assertThat(classPath).as("the annotations were left out").isNotEqualTo(ForkedProbe.applicationClassPath());
        return classPath;
    }

    private static String agentOption() {
        return "-javaagent:" + ForkedProbe.agentJar();
    }

    private static Path copyOfTheAgent(Path dir) {
        try {
            Path copy = Files.createDirectories(dir.resolve("copy")).resolve("idempotent-javaagent.jar");
            return Files.copy(ForkedProbe.agentJar(), copy);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> effects(Path dir) {
        Path file = dir.resolve("effects.log");
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
