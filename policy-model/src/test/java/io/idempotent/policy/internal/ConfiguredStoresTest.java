package io.idempotent.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rules that keep a misspelt store name from sending the tools to another store (issue 43). */
class ConfiguredStoresTest {

    private static ConfiguredStores of(Map<String, String> properties, Map<String, String> environment) {
        return ConfiguredStores.of(new ConfigurationSources(properties, environment));
    }

    @Test
    void eachStoreIsNamedWithTheHighestSettingThatGivesItsUrlDefaultFirst() {
        ConfiguredStores stores = of(Map.of("idempotent.agent.store.mail.url", "jdbc:h2:mem:a",
                "idempotent.store.mail.url", "jdbc:h2:mem:p", "idempotent.store.default.url", "jdbc:h2:mem:d"),
                Map.of("IDEMPOTENT_STORE_BILLING_URL", "jdbc:h2:mem:b", "IDEMPOTENT_STORE_URL", "jdbc:h2:mem:e"));
        assertThat(stores.urls()).containsExactly(Map.entry("default", "idempotent.store.default.url"),
                Map.entry("billing", "IDEMPOTENT_STORE_BILLING_URL"), Map.entry("mail", "idempotent.agent.store.mail.url"));
        assertThat(stores.embeddedDefault()).isFalse();
        assertThat(new ConfigurationSources(Map.of(), Map.of()).value(null)).isNull();
        assertThat(ConfiguredStores.nearest("billing", List.of())).isEqualTo("no store is configured");
        assertThat(of(Map.of("idempotent.store.pool.size", "2"), Map.of()).embeddedDefault()).isTrue();
    }

    @Test
    void aStoreNoToolUsesIsRefusedWithTheNearestStoreTheToolsUse() {
        ConfiguredStores stores = of(Map.of(), Map.of("IDEMPOTENT_STORE_URL", "jdbc:h2:mem:d",
                "IDEMPOTENT_STORE_BILING_URL", "jdbc:h2:mem:b"));
        assertThat(stores.problemWith(Set.of("billing", "default"))).isEqualTo("store biling is configured"
                + " (IDEMPOTENT_STORE_BILING_URL), but no tool of this JVM uses it (the tools use default, billing);"
                + " did you mean `billing`?");
        assertThat(stores.problemWith(Set.of("biling"))).isNull();
        // The default store needs no tool: a typo cannot make it.
        assertThat(of(Map.of(), Map.of("IDEMPOTENT_STORE_URL", "jdbc:h2:mem:d")).problemWith(Set.of("billing")))
                .isNull();
    }

    @Test
    void theDefaultStoresToolsNeverRunOnTheEmbeddedFileBesideAConfiguredStore() {
        ConfiguredStores stores = of(Map.of("idempotent.store.ledger.url", "jdbc:h2:mem:l",
                "idempotent.stores.loaded-later", "ledger"), Map.of());
        assertThat(stores.problemWith(Set.of("default"))).isEqualTo("the tools of store default would run on the"
                + " embedded H2 file, but the configured stores are ledger (idempotent.store.ledger.url): "
                + ConfiguredStores.EMBEDDED_ONLY);
        assertThat(stores.problemWith(List.of())).isNull();
        assertThat(stores.problemWith("default")).startsWith("store default has no url, and " + ConfiguredStores.EMBEDDED_ONLY)
                .endsWith("is `ledger` meant to be `default`?");
        assertThat(stores.problemWith("ledgr")).endsWith("did you mean `ledger`?");
        assertThat(of(Map.of(), Map.of()).problemWith("default")).isNull();
        assertThat(of(Map.of(), Map.of()).problemWith("billing")).isEqualTo("store billing has no url");
    }

    @Test
    void theSwitchForToolsLoadedLaterAdmitsOnlyConfiguredStoresByTheirExactNames() {
        Map<String, String> billing = Map.of("IDEMPOTENT_STORE_BILLING_URL", "jdbc:h2:mem:b");
        assertThat(of(Map.of("idempotent.stores.loaded-later", " billing ,"), billing).problemWith(Set.of())).isNull();
        assertThatThrownBy(() -> of(Map.of("idempotent.stores.loaded-later", "Billing"), billing))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"Billing\" cannot be configured");
        assertThatThrownBy(() -> of(Map.of("idempotent.agent.stores.loaded-later", "billng"), billing))
                .hasMessage("idempotent.agent.stores.loaded-later names billng, which no store URL configures (the"
                        + " configured stores are billing (IDEMPOTENT_STORE_BILLING_URL); did you mean `billing`?)");
        assertThatThrownBy(() -> of(Map.of(), Map.of("IDEMPOTENT_STORES_LOADED_LATER", "billing")))
                .hasMessageContaining("names billing, which no store URL configures (none is configured)");
        assertThatThrownBy(() -> of(Map.of("idempotent.stores.loaded-later", ","), billing))
                .hasMessageStartingWith("idempotent.stores.loaded-later names no store");
    }

    @Test
    void theStartLineSaysWhetherTheEmbeddedFileIsUsed() {
        assertThat(of(Map.of(), Map.of()).describe()).startsWith("the embedded H2 store ./.idempotent/operations, as"
                + " no store URL is configured");
        assertThat(of(Map.of(), Map.of("IDEMPOTENT_STORE_URL", "x")).describe())
                .isEqualTo("the configured stores default (IDEMPOTENT_STORE_URL)");
    }
}
