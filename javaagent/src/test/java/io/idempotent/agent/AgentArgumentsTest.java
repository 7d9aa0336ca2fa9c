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
    void aQuotedValueKeepsItsCommasWhole() {
        String url = "jdbc:postgresql://h1:5432,h2:5432/app?targetServerType=primary&loadBalanceHosts=true";
        AgentArguments args = AgentArguments.parse("store.url=\"" + url + "\",store.schema=validate");
        assertThat(args.get("store.url")).isEqualTo(url);
        assertThat(args.get("store.schema")).isEqualTo("validate");
        assertThatThrownBy(() -> AgentArguments.parse("store.url=\"jdbc:postgresql://h1,h2/app"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no closing quote");
    }

    @Test
    void anUnquotedUrlWithCommasIsRefusedInsteadOfTruncated() {
        // Split at its comma, the URL would name host h1 alone and its default database.
        assertThatThrownBy(() -> AgentArguments.parse(
                "store.url=jdbc:postgresql://h1:5432,h2:5432/app?targetServerType=primary"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("h2:5432/app?targetServerType")
                .hasMessageContaining("quote the value");
        assertThatThrownBy(() -> AgentArguments.parse("store.url=jdbc:postgresql://h1:5432,h2:5432/app"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("quote the value");
    }

    @Test
    void aMisspelledOrUnknownKeyIsRefused() {
        assertThatThrownBy(() -> AgentArguments.parse("store.ulr=jdbc:h2:mem:x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("store.ulr");
        assertThatThrownBy(() -> AgentArguments.parse("store.billing.eu.url=jdbc:h2:mem:x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("store.billing.eu.url");
        assertThat(AgentArguments.parse("store.billing_eu.url=jdbc:h2:mem:x").get("store.billing_eu.url"))
                .isEqualTo("jdbc:h2:mem:x");
    }

    @Test
    void aPasswordInsideTheUrlIsRefusedLikeStorePassword() {
        for (String url : new String[] {"jdbc:postgresql://db/app?user=app&password=hunter2",
                "jdbc:postgresql://db/app?PWD=hunter2", "jdbc:h2:file:/tmp/ops;USER=sa;PASSWORD=hunter2",
                "jdbc:postgresql://app:hunter2@db:5432/app", "\"jdbc:postgresql://h1,h2/app?password=hunter2\""}) {
            assertThatThrownBy(() -> AgentArguments.parse("store.url=" + url)).as(url)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("store.url refused")
                    .hasMessageContaining("IDEMPOTENT_STORE_PASSWORD")
                    .hasMessageNotContaining("hunter2");
        }
        assertThatThrownBy(() -> AgentArguments.parse("store.billing.url=jdbc:postgresql://db/app?password=x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("store.billing.url refused");
    }

    @Test
    void aPairWithoutAValueIsRejected() {
        assertThatThrownBy(() -> AgentArguments.parse("store.url")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"store.url\" is not key=value");
        assertThat(AgentArguments.parse(null).get("store.url")).isNull();
        assertThat(AgentArguments.parse("  ").get("store.url")).isNull();
    }
}
