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
        assertThat(config.stores()).extracting(StoreSettings::name).containsExactly("default", "billing", "mail");
        assertThat(config.store("mail").url()).isEqualTo("jdbc:h2:mem:mail");
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
}
