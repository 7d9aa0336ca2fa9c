package io.idempotent.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The agent's arguments and its start line. */
class AgentArgumentsTest {

    @AfterEach
    void clearPublished() {
        System.clearProperty("idempotent.agent.store.url");
        System.clearProperty("idempotent.agent.store.schema");
    }

    @Test
    void storeSettingsArePublishedForTheRuntimeAndOthersAreNot() {
        AgentArguments args = AgentArguments.parse(" store.url=jdbc:postgresql://db:5432/app ,store.schema=validate,"
                + "failOnMissingRuntime=true,");
        args.publish();
        assertThat(System.getProperty("idempotent.agent.store.url")).isEqualTo("jdbc:postgresql://db:5432/app");
        assertThat(System.getProperty("idempotent.agent.store.schema")).isEqualTo("validate");
        assertThat(System.getProperty("idempotent.agent.failOnMissingRuntime")).isNull();
        assertThat(args.flag("failOnMissingRuntime")).isTrue();
        assertThat(args.flag("somethingElse")).isFalse();
    }

    @Test
    void passwordsAreRefusedWithoutBeingEchoed() {
        assertThatThrownBy(() -> AgentArguments.parse("store.url=jdbc:postgresql://db/app,store.password=hunter2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("store.password refused")
                .hasMessageContaining("IDEMPOTENT_STORE_PASSWORD")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> AgentArguments.parse("store.orders.PASSWORD=x"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPairWithoutAValueIsRejected() {
        assertThatThrownBy(() -> AgentArguments.parse("store.url")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"store.url\" is not key=value");
        assertThat(AgentArguments.parse(null).get("store.url")).isNull();
        assertThat(AgentArguments.parse("  ").get("store.url")).isNull();
    }

    @Test
    void theStartLineNamesStoreSchemaAndToolCountAndMasksAPasswordInTheUrl() {
        String line = StartLine.describe(AgentArguments.parse(
                "store.url=jdbc:h2:file:/tmp/ops;USER=sa;PASSWORD=secret,store.schema=validate"));
        // The five tools of ShapeTools and the one of ProbeTools, from the tools.json the processor wrote into test-classes.
        assertThat(line).isEqualTo("started: store jdbc:h2:file:/tmp/ops;USER=sa;PASSWORD=***, schema validate,"
                + " 6 tool(s) to wrap (from META-INF/idempotent/tools.json)");
    }
}
