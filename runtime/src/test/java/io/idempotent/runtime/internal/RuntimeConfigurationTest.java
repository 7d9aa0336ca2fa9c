package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.internal.RuntimeConfiguration.StoreSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RuntimeConfigurationTest {

    @Test
    void agentArgumentsBeatSystemPropertiesWhichBeatTheEnvironment() {
        RuntimeConfiguration config = new RuntimeConfiguration(Map.of(
                "idempotent.agent.store.url", "jdbc:postgresql://agent/db",
                "idempotent.store.url", "jdbc:postgresql://property/db",
                "idempotent.store.user", "property-user",
                "idempotent.store.schema", "validate"),
                Map.of("IDEMPOTENT_STORE_URL", "jdbc:postgresql://env/db", "IDEMPOTENT_STORE_USER", "env-user",
                        "IDEMPOTENT_STORE_PASSWORD", "s3cret"));
        StoreSettings store = config.store("default");
        assertThat(store.url()).isEqualTo("jdbc:postgresql://agent/db");
        assertThat(store.user()).isEqualTo("property-user");
        assertThat(store.password()).isEqualTo("s3cret");
        assertThat(store.schema()).isEqualTo(SchemaMode.VALIDATE);
        assertThat(store.toString()).doesNotContain("s3cret");
    }

    @Test
    void passwordsAreNeverTakenFromAgentArguments() {
        RuntimeConfiguration config = new RuntimeConfiguration(Map.of(
                "idempotent.agent.store.url", "jdbc:postgresql://agent/db",
                "idempotent.agent.store.password", "from-agent"), Map.of());
        assertThat(config.store("default").password()).isNull();
    }

    @Test
    void defaultIsTheSharedEmbeddedH2Store() {
        StoreSettings store = new RuntimeConfiguration(Map.of(), Map.of()).store("default");
        assertThat(store.url()).isEqualTo("jdbc:h2:file:./.idempotent/operations;AUTO_SERVER=TRUE;WRITE_DELAY=0");
        assertThat(store.schema()).isEqualTo(SchemaMode.CREATE);
        // JVMs starting at once hand an H2 file over slowly; a network database answers or not.
        assertThat(store.connectTimeout()).isEqualTo(java.time.Duration.ofSeconds(30));
        assertThat(new RuntimeConfiguration(Map.of("idempotent.store.url", "jdbc:postgresql://db/app"), Map.of())
                .store("default").connectTimeout()).isEqualTo(java.time.Duration.ofSeconds(5));
    }

    @Test
    void aStatementWaitsTenSecondsForTheServerUnlessConfiguredAndPostgresqlIsToldInWholeSeconds() {
        StoreSettings unset = new RuntimeConfiguration(Map.of("idempotent.store.url", "jdbc:postgresql://db/app"),
                Map.of()).store("default");
        assertThat(unset.socketTimeout()).isEqualTo(java.time.Duration.ofSeconds(10));
        assertThat(DataSources.driverProperties(unset)).containsEntry("socketTimeout", "10")
                .containsEntry("tcpKeepAlive", "true");
        StoreSettings billing = new RuntimeConfiguration(Map.of(), Map.of("IDEMPOTENT_STORE_BILLING_URL",
                "jdbc:postgresql://db/billing", "IDEMPOTENT_STORE_BILLING_SOCKET_TIMEOUT", "PT0.2S"))
                .store("billing");
        // The driver reads 0 as "no timeout": a fraction of a second is rounded up, never down.
        assertThat(DataSources.driverProperties(billing)).containsEntry("socketTimeout", "1");
        assertThat(DataSources.driverProperties(new RuntimeConfiguration(Map.of(), Map.of()).store("default")))
                .isEmpty();
    }

    @Test
    void theEmbeddedDefaultIsDescribedByTheAbsoluteFileThatEveryJvmStartedHereShares() {
        java.nio.file.Path here = java.nio.file.Path.of("").toAbsolutePath();
        String line = new RuntimeConfiguration(Map.of(), Map.of()).store("default").toString();
        assertThat(line).startsWith("store default: jdbc:h2:file:./.idempotent/operations;")
                .contains("H2 file " + here.resolve(".idempotent").resolve("operations") + ".mv.db")
                .contains("shared by every JVM started in " + here);
        assertThat(new RuntimeConfiguration(Map.of("idempotent.store.url", "jdbc:h2:file:/var/ops/db"), Map.of())
                .store("default").toString()).contains("H2 file /var/ops/db.mv.db");
        assertThat(new RuntimeConfiguration(Map.of("idempotent.store.url", "jdbc:postgresql://db/app"), Map.of())
                .store("default").toString()).isEqualTo("store default: jdbc:postgresql://db/app (schema create)");
    }

    @Test
    void storeDefaultKeysNameTheDefaultStoreToo() {
        assertThat(new RuntimeConfiguration(Map.of("idempotent.store.default.url", "jdbc:postgresql://db/app"),
                Map.of()).store("default").url()).isEqualTo("jdbc:postgresql://db/app");
        assertThat(new RuntimeConfiguration(Map.of(), Map.of("IDEMPOTENT_STORE_DEFAULT_URL", "jdbc:h2:mem:d"))
                .store("default").url()).isEqualTo("jdbc:h2:mem:d");
    }

    @Test
    void aStoreNameTheRuntimeCannotConfigureIsRefused() {
        assertThatThrownBy(() -> new RuntimeConfiguration(Map.of(), Map.of()).store("billing.eu"))
                .isInstanceOf(StoreConfigurationException.class).hasMessageContaining("\"billing.eu\" cannot be configured");
        assertThatThrownBy(() -> io.idempotent.runtime.IdempotentRuntime.builder().store("", "jdbc:h2:mem:x", "sa", ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be empty");
    }

    @Test
    void namedStoresComeFromPropertiesAndEnvironment() {
        RuntimeConfiguration config = new RuntimeConfiguration(Map.of(
                "idempotent.store.billing.url", "jdbc:postgresql://billing/db"),
                Map.of("IDEMPOTENT_STORE_MAIL_URL", "jdbc:h2:mem:mail", "IDEMPOTENT_STORE_MAIL_SCHEMA", "create"));
        assertThat(config.stores()).extracting(StoreSettings::name).containsExactly("billing", "mail");
        assertThat(config.store("mail").url()).isEqualTo("jdbc:h2:mem:mail");
    }

    /**
     * Issue 43: once any store URL is configured, the embedded default is not among the stores and
     * asking for it is refused, naming the configured stores and the nearest of them; with a URL
     * of its own it is there, first.
     */
    @Test
    void theEmbeddedDefaultIsChosenOnlyWhenNoStoreUrlIsConfiguredAtAll() {
        RuntimeConfiguration misspelt = new RuntimeConfiguration(Map.of(),
                Map.of("IDEMPOTENT_STORE_DEFALT_URL", "jdbc:postgresql://db/app"));
        assertThat(misspelt.stores()).extracting(StoreSettings::name).containsExactly("defalt");
        assertThatThrownBy(() -> misspelt.store("default")).isInstanceOf(StoreConfigurationException.class)
                .hasMessageContainingAll("store default has no url",
                        "the embedded H2 default is used only when no store URL is configured at all",
                        "the configured stores are defalt (IDEMPOTENT_STORE_DEFALT_URL)",
                        "is `defalt` meant to be `default`?");
        assertThat(new RuntimeConfiguration(Map.of("idempotent.store.url", "jdbc:h2:mem:d",
                "idempotent.store.billing.url", "jdbc:h2:mem:b"), Map.of()).stores()).extracting(StoreSettings::name)
                .containsExactly("default", "billing");
        assertThat(new RuntimeConfiguration(Map.of(), Map.of()).stores()).extracting(StoreSettings::url)
                .containsExactly(RuntimeConfiguration.DEFAULT_URL);
        assertThatThrownBy(() -> new RuntimeConfiguration(Map.of(), Map.of("IDEMPOTENT_STORE_URL", "jdbc:h2:mem:d"))
                .store("defualt")).isInstanceOf(StoreConfigurationException.class)
                .hasMessageContainingAll("store defualt has no url", "default (IDEMPOTENT_STORE_URL)",
                        "did you mean `default`?");
    }

    @Test
    void badValuesAreClearErrors() {
        assertThatThrownBy(() -> new RuntimeConfiguration(Map.of("idempotent.store.schema", "migrate"), Map.of())
                .store("default")).isInstanceOf(StoreConfigurationException.class).hasMessageContaining("migrate");
        assertThatThrownBy(() -> new RuntimeConfiguration(Map.of("idempotent.store.connect.timeout", "5s"), Map.of())
                .store("default")).isInstanceOf(StoreConfigurationException.class).hasMessageContaining("PT5S");
        assertThat(new StoreSettings("x", "jdbc:h2:mem:x;PASSWORD=abc", "u", "p", SchemaMode.CREATE, 1).safeUrl())
                .doesNotContain("abc");
    }

    @Test
    void everyH2FileUrlWritesEachCommitBeforeItReturnsUnlessItSaysOtherwise() {
        assertThat(DataSources.durable("jdbc:h2:file:/var/ops;AUTO_SERVER=TRUE"))
                .isEqualTo("jdbc:h2:file:/var/ops;AUTO_SERVER=TRUE;WRITE_DELAY=0");
        assertThat(DataSources.durable("jdbc:h2:./ops")).isEqualTo("jdbc:h2:./ops;WRITE_DELAY=0");
        assertThat(DataSources.durable("jdbc:h2:file:/var/ops;write_delay=100")).isEqualTo(
                "jdbc:h2:file:/var/ops;write_delay=100");
        assertThat(DataSources.durable("jdbc:h2:mem:ops")).isEqualTo("jdbc:h2:mem:ops");
        assertThat(DataSources.durable("jdbc:postgresql://db/app")).isEqualTo("jdbc:postgresql://db/app");
    }

    @Test
    void anH2FileIsClosedByTheRuntimeNotByH2sOwnShutdownHookUnlessItsUrlSaysOtherwise() {
        assertThat(DataSources.closedByTheRuntime("jdbc:h2:file:/var/ops;WRITE_DELAY=0"))
                .isEqualTo("jdbc:h2:file:/var/ops;WRITE_DELAY=0;DB_CLOSE_ON_EXIT=FALSE");
        // H2 does not take it beside AUTO_SERVER=TRUE (Feature not supported).
        assertThat(DataSources.closedByTheRuntime("jdbc:h2:file:/var/ops;AUTO_SERVER=TRUE"))
                .isEqualTo("jdbc:h2:file:/var/ops;AUTO_SERVER=TRUE");
        assertThat(DataSources.closedByTheRuntime("jdbc:h2:./ops;db_close_on_exit=true"))
                .isEqualTo("jdbc:h2:./ops;db_close_on_exit=true");
        assertThat(DataSources.closedByTheRuntime("jdbc:h2:mem:ops")).isEqualTo("jdbc:h2:mem:ops");
        assertThat(DataSources.closedByTheRuntime("jdbc:h2:tcp://db/ops")).isEqualTo("jdbc:h2:tcp://db/ops");
    }

    @Test
    void theAttemptLogsBoundAndCloseTimeoutAreReadLikeEveryStoreSetting() {
        StoreSettings defaults = new RuntimeConfiguration(Map.of(), Map.of()).store("default");
        assertThat(defaults.answerLog().queueSize()).isEqualTo(10_000);
        assertThat(defaults.answerLog().closeTimeout()).isEqualTo(java.time.Duration.ofSeconds(5));
        RuntimeConfiguration configured = new RuntimeConfiguration(Map.of("idempotent.agent.store.answer.queue.size",
                "500", "idempotent.store.answer.queue.size", "900", "idempotent.store.url", "jdbc:h2:mem:d",
                "idempotent.store.billing.url", "jdbc:h2:mem:b",
                "idempotent.store.billing.close.timeout", "PT30S"), Map.of("IDEMPOTENT_STORE_CLOSE_TIMEOUT", "PT2S",
                "IDEMPOTENT_STORE_BILLING_ANSWER_QUEUE_SIZE", "64"));
        // The agent's argument above the system property above the environment, as for every key.
        assertThat(configured.store("default").answerLog().queueSize()).isEqualTo(500);
        assertThat(configured.store("default").answerLog().closeTimeout()).isEqualTo(java.time.Duration.ofSeconds(2));
        assertThat(configured.store("billing").answerLog().queueSize()).isEqualTo(64);
        assertThat(configured.store("billing").answerLog().closeTimeout()).isEqualTo(java.time.Duration.ofSeconds(30));
    }

    @Test
    void theReplayCacheIsOnByDefaultAndZeroTurnsItOff() {
        assertThat(new RuntimeConfiguration(Map.of(), Map.of()).store("default").answerLog().replayCache())
                .isEqualTo(10_000);
        RuntimeConfiguration configured = new RuntimeConfiguration(Map.of("idempotent.store.replay.cache.size", "0",
                "idempotent.store.url", "jdbc:h2:mem:d", "idempotent.store.billing.url", "jdbc:h2:mem:b"),
                Map.of("IDEMPOTENT_STORE_BILLING_REPLAY_CACHE_SIZE", "50"));
        assertThat(configured.store("default").answerLog().replayCache()).isZero();
        assertThat(configured.store("billing").answerLog().replayCache()).isEqualTo(50);
    }
}
