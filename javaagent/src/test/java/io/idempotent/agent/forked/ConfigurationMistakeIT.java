package io.idempotent.agent.forked;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
}
