package io.idempotent.agent.forked;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A configuration mistake given to the agent, in a real JVM: the tool refuses its calls with the
 * reason and its body never runs, neither on the store the user meant nor on an embedded one.
 * One row per mistake.
 */
class ConfigurationMistakeIT {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            store.ulr=jdbc:h2:mem:typo      | java.lang.IllegalStateException                      | the nearest known one is store.url
            failOnMissingRuntime=yes        | java.lang.IllegalStateException                      | must be true or false, was "yes"
            store.user=app                  | io.idempotent.runtime.StoreConfigurationException    | store default has idempotent.agent.store.user but no url
            stores.loaded-latr=billing      | java.lang.IllegalStateException                      | the nearest known one is stores.loaded-later
            stores.loaded-later=defalt      | java.lang.IllegalStateException                      | stores.loaded-later names defalt, which no store URL configures
            """)
    void theToolRefusesItsCallAndItsBodyNeverRuns(String agentArguments, String thrown, String says) throws IOException {
        String order = "order_" + UUID.randomUUID().toString().substring(0, 8);
        ForkedProbe probe = ForkedProbe.startWithAgentArguments(agentArguments, Jdk.current(), StoreTarget.H2_DEFAULT,
                dir, "call", order, "500", "1").finish();
        assertThat(probe.exitCode()).as(probe.output()).isZero();
        assertThat(probe.thrown()).as(probe.output()).containsExactly(thrown);
        assertThat(probe.outcomes().get(0)).as(probe.output()).contains(says);
        assertThat(dir.resolve("effects.log")).doesNotExist();
        // No embedded store was opened in its place.
        assertThat(dir.resolve(".idempotent")).satisfiesAnyOf(d -> assertThat(d).doesNotExist(),
                d -> assertThat(Files.list(d).filter(f -> f.toString().endsWith(".mv.db"))).isEmpty());
    }

    /**
     * Issue 43: where a store name is read, a misspelt one. A store URL configured under a name
     * that no listed tool uses (here {@code defualt} or {@code defalt} for {@code default}) is
     * refused when the agent starts, naming the store, where it was set and the nearest store the
     * tools use; every call is refused and the body runs neither on that store nor on the embedded
     * default.
     */
    record MisspeltStore(String source, String agentArguments, List<String> jvmOptions,
            Map<String, String> environment, String says) {
        @Override
        public String toString() {
            return source;
        }
    }

    static Stream<MisspeltStore> misspeltStores() {
        return Stream.of(
                new MisspeltStore("agent argument", "=store.defualt.url=jdbc:h2:mem:typo", List.of(), Map.of(),
                        "store defualt is configured (idempotent.agent.store.defualt.url)"),
                new MisspeltStore("system property", "", List.of("-Didempotent.store.defualt.url=jdbc:h2:mem:typo"),
                        Map.of(), "store defualt is configured (idempotent.store.defualt.url)"),
                new MisspeltStore("environment variable", "", List.of(),
                        Map.of("IDEMPOTENT_STORE_DEFALT_URL", "jdbc:h2:mem:typo"),
                        "store defalt is configured (IDEMPOTENT_STORE_DEFALT_URL)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("misspeltStores")
    void aMisspeltStoreNameIsRefusedAtStartAndTheBodyNeverRuns(MisspeltStore misspelt) throws IOException {
        String order = "order_" + UUID.randomUUID().toString().substring(0, 8);
        List<String> options = new java.util.ArrayList<>(List.of("-javaagent:" + ForkedProbe.agentJar()
                + misspelt.agentArguments()));
        options.addAll(misspelt.jvmOptions());
        ForkedProbe probe = ForkedProbe.startWithJvmOptions(options, misspelt.environment(),
                ForkedProbe.applicationClassPath(), Jdk.current(), StoreTarget.H2_DEFAULT, dir, "call", order, "500",
                "1").finish();
        assertThat(probe.exitCode()).as(probe.output()).isZero();
        assertThat(probe.output()).contains("[idempotent-agent] ERROR the agent did not start: " + misspelt.says())
                .contains("no tool of this JVM uses it (the tools use default); did you mean `default`?");
        assertThat(probe.thrown()).as(probe.output()).containsExactly("java.lang.IllegalStateException");
        assertThat(probe.outcomes().get(0)).as(probe.output()).contains(misspelt.says());
        assertThat(dir.resolve("effects.log")).doesNotExist();
        assertThat(dir.resolve(".idempotent")).satisfiesAnyOf(d -> assertThat(d).doesNotExist(),
                d -> assertThat(Files.list(d).filter(f -> f.toString().endsWith(".mv.db"))).isEmpty());
    }

    /**
     * The switch for tools loaded later admits the named store, but never the embedded default
     * beside it: the listed tools of the default store refuse every call, from the start.
     */
    @org.junit.jupiter.api.Test
    void aStoreForToolsLoadedLaterDoesNotSendTheDefaultStoresToolsToTheEmbeddedFile() throws IOException {
        String order = "order_" + UUID.randomUUID().toString().substring(0, 8);
        ForkedProbe probe = ForkedProbe.startWithJvmOptions(List.of("-javaagent:" + ForkedProbe.agentJar()
                + "=stores.loaded-later=ledger"), Map.of("IDEMPOTENT_STORE_LEDGER_URL", "jdbc:h2:mem:ledger"),
                ForkedProbe.applicationClassPath(), Jdk.current(), StoreTarget.H2_DEFAULT, dir, "call", order, "500",
                "1").finish();
        assertThat(probe.output()).contains("[idempotent-agent] ERROR the agent did not start: the tools of store"
                + " default would run on the embedded H2 file, but the configured stores are ledger"
                + " (IDEMPOTENT_STORE_LEDGER_URL)");
        assertThat(probe.thrown()).as(probe.output()).containsExactly("java.lang.IllegalStateException");
        assertThat(dir.resolve("effects.log")).doesNotExist();
        assertThat(dir.resolve(".idempotent")).satisfiesAnyOf(d -> assertThat(d).doesNotExist(),
                d -> assertThat(Files.list(d).filter(f -> f.toString().endsWith(".mv.db"))).isEmpty());
    }
}
