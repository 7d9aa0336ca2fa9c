package io.idempotent.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The agent installs once per JVM: a second installation does nothing and says so in one line. */
class SingleInstallationTest {

    private final PrintStream err = System.err;

    @AfterEach
    void restore() {
        System.setErr(err);
        System.clearProperty(SingleInstallation.PROPERTY);
    }

    @Test
    void theFirstInstallationClaimsTheJvmAndASecondOneOnlyWarns() {
        System.clearProperty(SingleInstallation.PROPERTY);
        String stderr = capturingStandardError(() -> {
            assertThat(SingleInstallation.claim()).isTrue();
            assertThat(SingleInstallation.claim()).isFalse();
            assertThat(SingleInstallation.claim()).isFalse();
        });
        assertThat(System.getProperty(SingleInstallation.PROPERTY)).isEqualTo("pid " + ProcessHandle.current().pid());
        assertThat(stderr.lines()).hasSize(2).allSatisfy(line -> assertThat(line)
                .startsWith("[idempotent-agent] WARNING the agent is already installed in this JVM")
                .contains("this second installation does nothing").contains("JAVA_TOOL_OPTIONS"));
    }

    @Test
    void aMarkerThatNamesAnotherProcessIsNoInstallation() {
        // Copied from another JVM's properties (a launcher passing its own on): this JVM has no agent yet.
        System.setProperty(SingleInstallation.PROPERTY, "pid " + (ProcessHandle.current().pid() + 1));
        String stderr = capturingStandardError(() -> assertThat(SingleInstallation.claim()).isTrue());
        assertThat(stderr).isEmpty();
        assertThat(System.getProperty(SingleInstallation.PROPERTY)).isEqualTo("pid " + ProcessHandle.current().pid());
    }

    private String capturingStandardError(Runnable action) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setErr(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(err);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
