package io.idempotent.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Store names, configuration keys and credentials in URLs. */
class StoreRulesTest {

    @Test
    void aStoreNameMustSurviveTheConfigurationKeysAndTheEnvironment() {
        assertThat(StoreNames.isValid("default")).isTrue();
        assertThat(StoreNames.isValid("billing_eu2")).isTrue();
        assertThat(StoreNames.problem("")).contains("must not be empty");
        assertThat(StoreNames.problem(null)).contains("must not be empty");
        for (String bad : new String[] {"billing.eu", "Billing", "billing-eu", "2fa", " billing", "a".repeat(65)}) {
            assertThat(StoreNames.problem(bad)).as(bad).isNotNull();
        }
        assertThatThrownBy(() -> StoreNames.require("billing.eu")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"billing.eu\" cannot be configured");
    }

    @Test
    void storeKeysParseForTheDefaultAndNamedStores() {
        assertThat(StoreKeys.parse("store.url")).isEqualTo(new StoreKeys.Key("default", "url"));
        assertThat(StoreKeys.parse("store.pool.size")).isEqualTo(new StoreKeys.Key("default", "pool.size"));
        assertThat(StoreKeys.parse("store.billing_eu.connect.timeout"))
                .isEqualTo(new StoreKeys.Key("billing_eu", "connect.timeout"));
        assertThat(StoreKeys.parse("store.ulr")).isNull();
        assertThat(StoreKeys.parse("store.billing.eu.url")).isNull();
        assertThat(StoreKeys.parse("h2:5432/app?targetServerType")).isNull();
        assertThat(StoreKeys.keys("default", "url")).containsExactly("store.url", "store.default.url");
        assertThat(StoreKeys.keys("billing", "url")).containsExactly("store.billing.url");
        assertThat(StoreKeys.environmentVariable("store.billing_eu.pool.size"))
                .isEqualTo("IDEMPOTENT_STORE_BILLING_EU_POOL_SIZE");
        assertThat(StoreKeys.storeOfUrlVariable("IDEMPOTENT_STORE_BILLING_EU_URL")).isEqualTo("billing_eu");
        assertThat(StoreKeys.storeOfUrlVariable("IDEMPOTENT_STORE_URL")).isNull();
    }

    @Test
    void passwordsInUrlsAreFoundAndMasked() {
        assertThat(UrlCredentials.contain("jdbc:postgresql://db/app?user=a&password=s")).isTrue();
        assertThat(UrlCredentials.contain("jdbc:postgresql://db/app?PWD=s")).isTrue();
        assertThat(UrlCredentials.contain("jdbc:h2:file:/x;USER=sa;PASSWORD=s")).isTrue();
        assertThat(UrlCredentials.contain("jdbc:postgresql://a:s@db/app")).isTrue();
        assertThat(UrlCredentials.contain("jdbc:postgresql://h1:5432,h2:5432/app?targetServerType=primary")).isFalse();
        assertThat(UrlCredentials.contain("jdbc:h2:file:./.idempotent/operations;AUTO_SERVER=TRUE")).isFalse();
        assertThat(UrlCredentials.mask("jdbc:h2:file:/x;USER=sa;PASSWORD=s;WRITE_DELAY=0"))
                .isEqualTo("jdbc:h2:file:/x;USER=sa;PASSWORD=***;WRITE_DELAY=0");
        assertThat(UrlCredentials.mask("jdbc:postgresql://a:s@db/app?password=t&ssl=true"))
                .isEqualTo("jdbc:postgresql://a:***@db/app?password=***&ssl=true");
    }
}
