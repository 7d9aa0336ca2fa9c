package io.idempotent.agent.forked;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tier 3: real JVMs started with {@code -javaagent:} on the built jar, on the JDK of the build and
 * on Temurin 25, against the embedded H2 default and an embedded PostgreSQL. The application
 * ({@code AgentProbe}) calls its tool plainly; the effects are counted in a file the tool body
 * appends to, shared by every JVM of a test.
 */
class ForkedAgentIT extends ForkedRuns {


    static Stream<Arguments> targets() {
        return Jdk.all().stream().flatMap(jdk -> Stream.of(StoreTarget.values()).map(s -> Arguments.of(jdk, s)));
    }

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("targets")
    void aDuplicateCallReplaysTheStoredResultInTheSameAndInAnotherJvm(Jdk jdk, StoreTarget store) {
        String order = order();
        ForkedProbe first = run(jdk, store, "call", order, "500", "2");
        assertThat(first.results()).as(first.output()).hasSize(2);
        String result = first.results().get(0);
        assertThat(first.results().get(1)).isEqualTo(result);

        ForkedProbe second = run(jdk, store, "call", order, "500", "1");
        // The stored result names the first JVM's pid: the second JVM did not run the body.
        assertThat(second.results()).as(second.output()).containsExactly(result);
        assertThat(effects()).containsExactly("charge " + order + " 500");
        assertThat(store.row(dir, "charge:" + order)).hasValueSatisfying(row -> assertThat(row.get(0))
                .isEqualTo("completed"));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("targets")
    void aJvmThatExitsNormallyRightAfterItsReplaysHasWrittenEveryReplayToTheAttemptLog(Jdk jdk, StoreTarget store) {
        String order = order();
        int replays = 200;
        // The first call runs the body, the others replay; the JVM exits as soon as the last returned.
        ForkedProbe probe = run(jdk, store, "call", order, "500", String.valueOf(replays + 1));
        assertThat(probe.results()).as(probe.output()).hasSize(replays + 1);
        assertThat(effects()).containsExactly("charge " + order + " 500");
        // The replays' answers are written after their calls returned; the runtime's shutdown hook drains them.
        assertThat(store.attemptRows(dir, "charge:" + order, "REPLAYED")).as(probe.output()).isEqualTo(replays);
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("targets")
    void aChangedPayloadUnderTheSameKeyIsRejected(Jdk jdk, StoreTarget store) {
        String order = order();
        ForkedProbe first = run(jdk, store, "call", order, "500", "1");
        assertThat(first.results()).as(first.output()).hasSize(1);

        ForkedProbe changed = run(jdk, store, "call", order, "900", "1");
        assertThat(changed.thrown()).as(changed.output()).containsExactly(RUNTIME + "PayloadConflictException");
        assertThat(effects()).containsExactly("charge " + order + " 500");
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("targets")
    void eightThreadsRacingOneKeyCauseOneEffect(Jdk jdk, StoreTarget store) {
        String order = order();
        ForkedProbe race = run(jdk, store, "race", order, "500", "8");
        assertThat(race.outcomes()).as(race.output()).hasSize(8);
        // The winner's body holds the key until the seven others were answered: they all met it in progress.
        assertThat(race.results()).as(race.output()).hasSize(1);
        assertThat(race.thrown()).as(race.output()).hasSize(7)
                .allMatch((RUNTIME + "OperationInProgressException")::equals);
        assertThat(race.lines()).doesNotContain("HOLD_TIMEOUT");
        assertThat(effects()).containsExactly("charge " + order + " 500");
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("targets")
    void aJvmThatDiesAfterTheEffectLeavesAnOperationThatNeedsReconciliation(Jdk jdk, StoreTarget store) {
        String order = order();
        String key = "charge:" + order;
        ForkedProbe halted = ForkedProbe.start(jdk, store, dir, "halt", order, "500").finish();
        assertThat(halted.exitCode()).as(halted.output()).isEqualTo(3);
        assertThat(halted.lines()).as(halted.output()).contains("EFFECT_COMMITTED halting");
        assertNoAgentError(halted, store);

        awaitLeaseExpiry(store, key);
        ForkedProbe retry = run(jdk, store, "call", order, "500", "1");
        assertThat(retry.thrown()).as(retry.output()).containsExactly(RUNTIME + "NeedsReconciliationException");
        assertThat(effects()).containsExactly("charge " + order + " 500");
        assertThat(store.row(dir, key)).hasValueSatisfying(row -> assertThat(row.get(0))
                .isEqualTo("needs_reconciliation"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void fourJvmsStartedAtOnceOnTheDefaultStoreCauseOneEffect(Jdk jdk) throws IOException {
        String order = order();
        Path go = dir.resolve("go");
        List<ForkedProbe> probes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            probes.add(ForkedProbe.start(jdk, StoreTarget.H2_DEFAULT, dir, "await-go", go.toString(), order, "500"));
        }
        probes.forEach(p -> p.awaitLine("READY"));
        Files.createFile(go);
        List<String> results = new ArrayList<>();
        for (ForkedProbe probe : probes) {
            probe.finish();
            assertThat(probe.exitCode()).as(probe.output()).isZero();
            assertNoAgentError(probe, StoreTarget.H2_DEFAULT);
            assertThat(probe.outcomes()).as(probe.output()).hasSize(1);
            assertThat(probe.thrown()).as(probe.output()).allMatch((RUNTIME + "OperationInProgressException")::equals);
            results.addAll(probe.results());
        }
        assertThat(results).as("the result, or the same replayed").isNotEmpty().containsOnly(results.get(0));
        assertThat(effects()).containsExactly("charge " + order + " 500");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void anAgentAttachedToARunningJvmWrapsItsAlreadyLoadedTool(Jdk jdk) throws IOException {
        String order = order();
        Path go = dir.resolve("go");
        ForkedProbe probe = ForkedProbe.startWithoutAgent(jdk, StoreTarget.H2_DEFAULT, dir, "await-go", go.toString(),
                order, "500");
        // READY comes after the probe created its ProbeTools: the tool class is loaded, unwrapped.
        probe.awaitLine("READY");
        ByteBuddyAgent.attach(ForkedProbe.agentJar().toFile(), String.valueOf(probe.pid()));
        Files.createFile(go);
        probe.finish();
        assertThat(probe.exitCode()).as(probe.output()).isZero();
        assertThat(probe.output()).contains("[idempotent-agent] started: wrapped 12 tool method(s), 12 listed in")
                .contains("(attached)").doesNotContain("[idempotent-agent] ERROR");
        // The loaded ProbeTools retransformed, the four other listed classes loaded and wrapped at the start.
        assertThat(probe.lines()).as(probe.output()).contains("AGENT transformed=5 errors=0");
        assertThat(probe.results()).as(probe.output()).hasSize(1);
        assertThat(status(StoreTarget.H2_DEFAULT, "charge:" + order)).isEqualTo("completed");

        // The call went through the protocol: a JVM started with the agent replays its result.
        ForkedProbe replay = run(jdk, StoreTarget.H2_DEFAULT, "call", order, "500", "1");
        assertThat(replay.results()).as(replay.output()).containsExactlyElementsOf(probe.results());
        assertThat(effects()).containsExactly("charge " + order + " 500");
    }

    @Test
    void aJvmWithoutTheRuntimeRefusesEveryToolCall() {
        // The application's own classes and the annotations, nothing of the runtime or its dependencies.
        String classPath = ForkedProbe.classPathOf(entry -> entry.endsWith("test-classes")
                || entry.contains("idempotent-annotations") || entry.endsWith(Path.of("annotations", "target",
                        "classes").toString()));
        assertThat(classPath).contains("test-classes");
        ForkedProbe probe = ForkedProbe.startWithClassPath(classPath, Jdk.current(), StoreTarget.H2_DEFAULT, dir,
                "call", order(), "500", "1").finish();
        assertThat(probe.thrown()).as(probe.output()).containsExactly("java.lang.IllegalStateException");
        assertThat(probe.outcomes().get(0)).contains("idempotent-runtime is not on its class path");
        assertThat(probe.output()).contains("[idempotent-agent] ERROR io.idempotent.it.probe.ProbeTools has"
                + " @IdempotentTool methods, but idempotent-runtime is not visible");
        assertThat(probe.lines()).contains("AGENT transformed=0 errors=0");
        assertThat(effects()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aToolClassTheAgentCannotTransformRefusesEveryCallAndItsBodyNeverRuns(Jdk jdk) throws IOException {
        // The tool's return type is not deployed (an optional dependency left out): Byte Buddy
        // cannot resolve it, so the protocol's advice cannot be woven into the class.
        String classPath = ForkedProbe.applicationClassPathWithout(dir.resolve("app-classes"),
                "io/idempotent/it/absent/Receipt.class");
        String order = order();
        ForkedProbe probe = ForkedProbe.startWithClassPath(classPath, jdk, StoreTarget.H2_DEFAULT, dir, "receipt",
                order, "2").finish();
        assertThat(probe.exitCode()).as(probe.output()).isZero();
        assertThat(probe.thrown()).as(probe.output()).containsExactly("java.lang.IllegalStateException",
                "java.lang.IllegalStateException");
        assertThat(probe.outcomes()).allSatisfy(o -> assertThat(o)
                .contains("OptionalDependencyTools.receipt refused")
                .contains("the idempotent agent could not wrap it")
                .contains("[idempotent-agent] ERROR"));
        assertThat(probe.output()).contains("[idempotent-agent] ERROR could not wrap the tools of"
                + " io.idempotent.it.absent.OptionalDependencyTools");
        assertThat(probe.lines()).as(probe.output()).anyMatch(l -> l.matches("AGENT transformed=\\d+ errors=[1-9]\\d*"));
        assertThat(effects()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void anAgentThatCannotReadItsArgumentsRefusesEveryToolCallAndNamesTheProblem(Jdk jdk) {
        // The documented refusal of a password among the agent arguments must not leave the tools unwrapped.
        ForkedProbe probe = ForkedProbe.startWithAgentArguments("store.password=hunter2", jdk, StoreTarget.H2_DEFAULT,
                dir, "call", order(), "500", "2").finish();
        assertThat(probe.exitCode()).as(probe.output()).isZero();
        assertThat(probe.thrown()).as(probe.output()).containsExactly("java.lang.IllegalStateException",
                "java.lang.IllegalStateException");
        assertThat(probe.outcomes()).allSatisfy(o -> assertThat(o).contains("ProbeTools.charge refused")
                .contains("the idempotent agent did not start").contains("store.password refused"));
        assertThat(probe.output()).contains("[idempotent-agent] ERROR").doesNotContain("hunter2");
        assertThat(effects()).isEmpty();
    }

    @Test
    void aMultiHostUrlCutAtItsCommaIsRefusedAndAQuotedOneWorksWhole() {
        String hostPort = StoreTarget.postgresHostWith("app");
        String url = "jdbc:postgresql://" + hostPort + "," + hostPort + "/app?targetServerType=primary";

        // Unquoted, the comma ends the value: jdbc:postgresql://host:port is the user's database, not app.
        String cut = order();
        ForkedProbe unquoted = ForkedProbe.startWithAgentArguments("store.url=" + url, Jdk.current(),
                StoreTarget.POSTGRES, dir, "call", cut, "500", "1").finish();
        assertThat(unquoted.thrown()).as(unquoted.output()).containsExactly("java.lang.IllegalStateException");
        assertThat(unquoted.outcomes().get(0)).contains("quote the value");
        assertThat(effects()).isEmpty();

        String whole = order();
        ForkedProbe quoted = ForkedProbe.startWithAgentArguments("store.url=\"" + url + "\",store.schema=create",
                Jdk.current(), StoreTarget.POSTGRES, dir, "call", whole, "500", "2").finish();
        assertThat(quoted.exitCode()).as(quoted.output()).isZero();
        assertThat(quoted.results()).as(quoted.output()).hasSize(2).containsOnly(quoted.results().get(0));
        assertThat(quoted.output()).doesNotContain("[idempotent-agent] ERROR");
        assertThat(effects()).containsExactly("charge " + whole + " 500");
        assertThat(StoreTarget.postgresStatus("app", "charge:" + whole)).contains("completed");
    }

    @Test
    void aPasswordInsideTheAgentsStoreUrlIsRefusedAndNoToolRuns() {
        String hostPort = StoreTarget.postgresHostWith("app");
        ForkedProbe probe = ForkedProbe.startWithAgentArguments("store.url=jdbc:postgresql://" + hostPort
                + "/app?password=postgres", Jdk.current(), StoreTarget.POSTGRES, dir, "call", order(), "500", "1")
                .finish();
        assertThat(probe.thrown()).as(probe.output()).containsExactly("java.lang.IllegalStateException");
        assertThat(probe.outcomes().get(0)).contains("store.url refused").doesNotContain("password=postgres");
        assertThat(probe.output()).doesNotContain("password=postgres");
        assertThat(effects()).isEmpty();
    }

    /** Runs the probe to its end and checks what every run must show. */
    private ForkedProbe run(Jdk jdk, StoreTarget store, String... args) {
        ForkedProbe probe = worked(ForkedProbe.start(jdk, store, dir, args).finish(), 12);
        assertNoAgentError(probe, store);
        return probe;
    }

    /** The agent started, the runtime named its real store, and nothing failed to wrap. */
    private void assertNoAgentError(ForkedProbe probe, StoreTarget store) {
        startedCleanly(probe, 12);
        assertThat(probe.output()).contains("[idempotent-agent] started: wrapped 12 tool method(s), 12 listed in"
                + " META-INF/idempotent/tools.json; the runtime")
                .contains("idempotent runtime: " + store.runtimeStoreLine(dir))
                .doesNotContain("sun.misc.Unsafe");
    }
}
