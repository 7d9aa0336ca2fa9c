package io.idempotent.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every key the library reads is known; any other under its prefixes names the nearest known key. */
class ConfigurationKeysTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            idempotent.store.ulr                   | idempotent.store.url
            idempotent.store.usr                   | idempotent.store.user
            idempotent.store.poolsize              | idempotent.store.pool.size
            idempotent.store.billing_eu.schem      | idempotent.store.billing_eu.schema
            idempotent.agent.store.conect.timeout  | idempotent.agent.store.connect.timeout
            idempotent.telemetry.operation_keys    | idempotent.telemetry.operation-keys
            idempotent.test.postgres.pasword       | idempotent.test.postgres.password
            idempotent.stores.loaded-latr          | idempotent.stores.loaded-later
            idempotent.agent.store.loaded-later    | idempotent.agent.stores.loaded-later
            """)
    void anUnknownPropertyNamesTheNearestKnownOne(String property, String nearest) {
        assertThat(StoreKeys.propertyProblem(property)).startsWith("unknown setting " + property)
                .endsWith("the nearest known one is " + nearest);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            IDEMPOTENT_STORE_URI                 | IDEMPOTENT_STORE_URL
            IDEMPOTENT_STORE_PASWORD             | IDEMPOTENT_STORE_PASSWORD
            IDEMPOTENT_STORE_BILLING_EU_ULR      | IDEMPOTENT_STORE_BILLING_EU_URL
            IDEMPOTENT_STORE_billing_URL         | IDEMPOTENT_STORE_BILLING_URL
            IDEMPOTENT_CONSOLE_TOKN              | IDEMPOTENT_CONSOLE_TOKEN
            IDEMPOTENT_STORES_LOADED_LATR        | IDEMPOTENT_STORES_LOADED_LATER
            """)
    void anUnknownVariableNamesTheNearestKnownOne(String variable, String nearest) {
        assertThat(StoreKeys.environmentProblem(variable)).startsWith("unknown setting " + variable)
                .endsWith("the nearest known one is " + nearest);
    }

    @ParameterizedTest
    @ValueSource(strings = {"idempotent.store.url", "idempotent.store.default.url", "idempotent.store.ledger.pool.size",
        "idempotent.agent.store.url", "idempotent.agent.store.billing_eu.schema", "idempotent.telemetry.operation-keys",
        "build.demo.dir", "IDEMPOTENT_STORE_URL", "IDEMPOTENT_STORE_CONNECT_TIMEOUT",
        "IDEMPOTENT_STORE_BILLING_EU_POOL_SIZE", "IDEMPOTENT_TELEMETRY_OPERATION_KEYS", "IDEMPOTENT_CONSOLE_TOKEN",
        "idempotent.stores.loaded-later", "idempotent.agent.stores.loaded-later", "IDEMPOTENT_STORES_LOADED_LATER",
        "java.home", "PATH", "IDEMPOTENTX"})
    void everyKeyTheLibraryReadsIsKnownAndOthersAreNotItsBusiness(String key) {
        assertThat(key.equals(key.toUpperCase()) ? StoreKeys.environmentProblem(key) : StoreKeys.propertyProblem(key))
                .isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            store.ulr              | store.url
            store.ledger.ulr       | store.ledger.url
            failOnMisingRuntime    | failOnMissingRuntime
            stores.loaded-latr     | stores.loaded-later
            """)
    void anUnknownAgentArgumentNamesTheNearestKnownOne(String key, String nearest) {
        assertThat(StoreKeys.agentArgumentProblem(key)).endsWith("the nearest known one is " + nearest);
        assertThat(StoreKeys.agentArgumentProblem(nearest)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "no", "1", "0", "on", "", " tru"})
    void aYesNoSettingIsTrueOrFalseOnly(String value) {
        assertThatThrownBy(() -> BooleanSetting.parse("flag", value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("flag must be true or false, was \"" + value + "\"");
    }

    @ParameterizedTest
    @CsvSource({"true,true", "TRUE,true", " False ,false"})
    void trueAndFalseInAnyCase(String value, boolean expected) {
        assertThat(BooleanSetting.parse("flag", value)).isEqualTo(expected);
        assertThat(BooleanSetting.parse("flag", null)).isFalse();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            jdbc:postgresql://db/app?password=x      | true
            jdbc:postgresql://app:x@db/app           | true
            jdbc:postgresql://db/app?user=app        | false
            """)
    void aUrlWithAPasswordIsRefusedWithoutRepeatingIt(String url, boolean refused) {
        String refusal = UrlCredentials.refusal("--store-url", url);
        assertThat(refusal != null).isEqualTo(refused);
        if (refused) {
            assertThat(refusal).startsWith("--store-url refused: the URL carries a password").doesNotContain(url);
        }
    }
}
