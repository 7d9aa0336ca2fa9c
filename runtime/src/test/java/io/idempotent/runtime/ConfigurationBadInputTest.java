package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.runtime.agent.DispatchedTools;
import io.idempotent.runtime.agent.ToolDispatcher;
import io.idempotent.runtime.internal.RuntimeAccess;
import io.idempotent.runtime.internal.RuntimeConfiguration;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Configuration mistakes (docs/configuration.md; docs/troubleshooting.md, "Configuration") are
 * errors that name the setting and what to do, raised before any store opens: never a silent
 * fallback to the embedded store. One row per mistake; the next one is one line to add.
 */
class ConfigurationBadInputTest {

    private static final String REFUND = "refund(Ljava/lang/String;)Ljava/lang/String;";

    /** A configuration mistake and the parts its message must hold. */
    record Mistake(String what, Map<String, String> properties, Map<String, String> environment,
            List<String> message) {

        @Override
        public String toString() {
            return what;
        }
    }

    private static Mistake property(String what, Map<String, String> properties, String... message) {
        return new Mistake(what, properties, Map.of(), List.of(message));
    }

    private static Mistake environment(String what, Map<String, String> environment, String... message) {
        return new Mistake(what, Map.of(), environment, List.of(message));
    }

    static Stream<Mistake> mistakes() {
        return Stream.of(
                property("typo'd store url property", Map.of("idempotent.store.ulr", "jdbc:postgresql://db/app"),
                        "idempotent.store.ulr", "nearest known one is idempotent.store.url"),
                environment("typo'd store url variable", Map.of("IDEMPOTENT_STORE_URI", "jdbc:postgresql://db/app"),
                        "IDEMPOTENT_STORE_URI", "nearest known one is IDEMPOTENT_STORE_URL"),
                property("typo'd agent argument handed over as a property",
                        Map.of("idempotent.agent.store.ulr", "jdbc:postgresql://db/app"),
                        "idempotent.agent.store.ulr", "nearest known one is idempotent.agent.store.url"),
                property("typo'd attribute of a named store", Map.of("idempotent.store.billing.ulr", "jdbc:h2:mem:b"),
                        "idempotent.store.billing.ulr", "nearest known one is idempotent.store.billing.url"),
                environment("typo'd attribute of a named store's variable",
                        Map.of("IDEMPOTENT_STORE_BILLING_EU_URL", "jdbc:h2:mem:b", "IDEMPOTENT_STORE_BILLING_EU_USR",
                                "app"),
                        "IDEMPOTENT_STORE_BILLING_EU_USR", "nearest known one is IDEMPOTENT_STORE_BILLING_EU_USER"),
                property("typo'd test kit setting", Map.of("idempotent.test.postgres.ulr", "jdbc:postgresql://db/k"),
                        "idempotent.test.postgres.ulr", "nearest known one is idempotent.test.postgres.url"),
                property("typo'd telemetry setting", Map.of("idempotent.telemetry.operation-key", "true"),
                        "idempotent.telemetry.operation-key", "nearest known one is idempotent.telemetry.operation-keys"),
                environment("an unknown variable under the library's prefix", Map.of("IDEMPOTENT_CONSOL_TOKEN", "x"),
                        "IDEMPOTENT_CONSOL_TOKEN", "nearest known one is IDEMPOTENT_CONSOLE_TOKEN"),
                property("user without url", Map.of("idempotent.store.user", "app"),
                        "store default has idempotent.store.user but no url", "embedded H2 store",
                        "Set store.url (-Didempotent.store.url or IDEMPOTENT_STORE_URL)"),
                environment("user and password without url",
                        Map.of("IDEMPOTENT_STORE_USER", "app", "IDEMPOTENT_STORE_PASSWORD", "s3cret"),
                        "store default has IDEMPOTENT_STORE_USER, IDEMPOTENT_STORE_PASSWORD but no url"),
                property("a named store's user without its url", Map.of("idempotent.store.billing.user", "app"),
                        "store billing has idempotent.store.billing.user but no url",
                        "Set store.billing.url (-Didempotent.store.billing.url or IDEMPOTENT_STORE_BILLING_URL)"),
                environment("a named store's password without its url", Map.of("IDEMPOTENT_STORE_MAIL_PASSWORD", "x"),
                        "store mail has IDEMPOTENT_STORE_MAIL_PASSWORD but no url"),
                property("a yes/no setting that is neither", Map.of("idempotent.telemetry.operation-keys", "yes"),
                        "idempotent.telemetry.operation-keys must be true or false, was \"yes\""),
                environment("a yes/no variable that is neither", Map.of("IDEMPOTENT_TELEMETRY_OPERATION_KEYS", "1"),
                        "IDEMPOTENT_TELEMETRY_OPERATION_KEYS must be true or false, was \"1\""),
                property("a zero connect timeout", Map.of("idempotent.store.connect.timeout", "PT0S"),
                        "idempotent.store.connect.timeout must be a positive ISO-8601 duration", "was \"PT0S\""),
                environment("a negative connect timeout", Map.of("IDEMPOTENT_STORE_CONNECT_TIMEOUT", "-PT5S"),
                        "IDEMPOTENT_STORE_CONNECT_TIMEOUT must be a positive ISO-8601 duration", "was \"-PT5S\""),
                property("a connect timeout that is not a duration",
                        Map.of("idempotent.store.billing.url", "jdbc:h2:mem:b", "idempotent.store.billing.connect.timeout",
                                "5s"),
                        "idempotent.store.billing.connect.timeout must be a positive ISO-8601 duration such as PT5S"),
                property("a zero socket timeout", Map.of("idempotent.store.socket.timeout", "PT0S"),
                        "idempotent.store.socket.timeout must be a positive ISO-8601 duration", "was \"PT0S\""),
                environment("a socket timeout that is not a duration",
                        Map.of("IDEMPOTENT_STORE_BILLING_URL", "jdbc:postgresql://db/b",
                                "IDEMPOTENT_STORE_BILLING_SOCKET_TIMEOUT", "10"),
                        "IDEMPOTENT_STORE_BILLING_SOCKET_TIMEOUT must be a positive ISO-8601 duration such as PT5S",
                        "was \"10\""),
                property("a pool size of zero", Map.of("idempotent.store.pool.size", "0"),
                        "idempotent.store.pool.size must be a whole number of connections, at least 1", "was \"0\""),
                environment("a pool size that is not a number", Map.of("IDEMPOTENT_STORE_POOL_SIZE", "eight"),
                        "IDEMPOTENT_STORE_POOL_SIZE must be a whole number", "was \"eight\""),
                property("an answer queue of no answers", Map.of("idempotent.store.answer.queue.size", "0"),
                        "idempotent.store.answer.queue.size must be a whole number of answers, at least 1",
                        "was \"0\""),
                environment("an answer queue size that is not a number",
                        Map.of("IDEMPOTENT_STORE_ANSWER_QUEUE_SIZE", "10k"),
                        "IDEMPOTENT_STORE_ANSWER_QUEUE_SIZE must be a whole number of answers", "was \"10k\""),
                property("a negative replay cache", Map.of("idempotent.store.replay.cache.size", "-1"),
                        "idempotent.store.replay.cache.size must be a whole number of operations, 0 or more",
                        "was \"-1\""),
                property("a zero close timeout", Map.of("idempotent.agent.store.close.timeout", "PT0S"),
                        "idempotent.agent.store.close.timeout must be a positive ISO-8601 duration", "was \"PT0S\""),
                environment("a named store's close timeout that is not a duration",
                        Map.of("IDEMPOTENT_STORE_MAIL_URL", "jdbc:h2:mem:m", "IDEMPOTENT_STORE_MAIL_CLOSE_TIMEOUT", "5"),
                        "IDEMPOTENT_STORE_MAIL_CLOSE_TIMEOUT must be a positive ISO-8601 duration such as PT5S",
                        "was \"5\""),
                property("a typo'd close timeout", Map.of("idempotent.store.close.timout", "PT5S"),
                        "idempotent.store.close.timout", "nearest known one is idempotent.store.close.timeout"),
                property("the loaded-later switch naming a store no url configures",
                        Map.of("idempotent.store.billing.url", "jdbc:h2:mem:b", "idempotent.stores.loaded-later",
                                "billng"),
                        "idempotent.stores.loaded-later names billng, which no store URL configures",
                        "did you mean `billing`?"),
                environment("the loaded-later variable naming a store no url configures",
                        Map.of("IDEMPOTENT_STORE_BILLING_URL", "jdbc:h2:mem:b", "IDEMPOTENT_STORES_LOADED_LATER",
                                "billing,audit"),
                        "IDEMPOTENT_STORES_LOADED_LATER names audit, which no store URL configures"),
                property("the loaded-later switch naming a store that cannot exist",
                        Map.of("idempotent.agent.stores.loaded-later", "billing.eu"),
                        "idempotent.agent.stores.loaded-later: store name \"billing.eu\" cannot be configured"),
                environment("the loaded-later variable naming no store", Map.of("IDEMPOTENT_STORES_LOADED_LATER", " "),
                        "IDEMPOTENT_STORES_LOADED_LATER names no store"),
                property("a misspelt loaded-later switch", Map.of("idempotent.stores.loaded-latr", "billing"),
                        "idempotent.stores.loaded-latr", "nearest known one is idempotent.stores.loaded-later"),
                environment("a misspelt loaded-later variable", Map.of("IDEMPOTENT_STORE_LOADED_LATER", "billing"),
                        "IDEMPOTENT_STORE_LOADED_LATER", "nearest known one is IDEMPOTENT_STORES_LOADED_LATER"),
                environment("a schema mode that does not exist",
                        Map.of("IDEMPOTENT_STORE_MAIL_URL", "jdbc:h2:mem:m", "IDEMPOTENT_STORE_MAIL_SCHEMA", "migrate"),
                        "IDEMPOTENT_STORE_MAIL_SCHEMA must be create or validate, was \"migrate\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void isAConfigurationErrorNamingTheSetting(Mistake mistake) {
        assertThatThrownBy(() -> new RuntimeConfiguration(mistake.properties(), mistake.environment()).stores())
                .isInstanceOf(StoreConfigurationException.class)
                .hasMessageContainingAll(mistake.message().toArray(String[]::new))
                .hasMessageNotContaining("s3cret")
                .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isFalse());
    }

    static Stream<Map<String, String>> knownKeys() {
        return Stream.of(
                Map.of("idempotent.store.url", "jdbc:postgresql://db/app", "idempotent.store.user", "app",
                        "idempotent.store.password", "x", "idempotent.store.schema", "VALIDATE",
                        "idempotent.store.pool.size", "4", "idempotent.store.connect.timeout", "PT2S",
                        "idempotent.store.socket.timeout", "PT3S", "idempotent.store.answer.queue.size", "100",
                        "idempotent.store.close.timeout", "PT1S"),
                Map.of("idempotent.agent.store.url", "jdbc:h2:mem:a", "idempotent.agent.store.billing_eu.url",
                        "jdbc:h2:mem:b", "idempotent.store.billing_eu.pool.size", "2"),
                Map.of("idempotent.store.schema", "create", "idempotent.store.pool.size", "2"),
                Map.of("idempotent.telemetry.operation-keys", "TRUE", "idempotent.agent.telemetry.operation-keys",
                        "false"),
                // Read by the contract test kit (StoreKeys.LIBRARY_PROPERTIES).
                Map.of("idempotent.test.postgres.url", "jdbc:postgresql://db/kit", "idempotent.test.postgres.user",
                        "kit", "idempotent.test.postgres.password", "x"));
    }

    /**
     * A store configured under a name no tool of the JVM uses (issue 43), from each source: the
     * configuration is refused, naming the store, where it was set, the stores the tools use and
     * the nearest of them.
     */
    static Stream<Mistake> misspeltStoreNames() {
        return Stream.of(
                environment("a misspelt store in a variable", Map.of("IDEMPOTENT_STORE_DEFALT_URL", "jdbc:h2:mem:d"),
                        "store defalt is configured (IDEMPOTENT_STORE_DEFALT_URL)", "did you mean `default`?"),
                property("a misspelt store in a system property", Map.of("idempotent.store.defualt.url", "jdbc:h2:mem:d"),
                        "store defualt is configured (idempotent.store.defualt.url)", "did you mean `default`?"),
                property("a misspelt store in an agent argument",
                        Map.of("idempotent.agent.store.defualt.url", "jdbc:h2:mem:d"),
                        "store defualt is configured (idempotent.agent.store.defualt.url)", "did you mean `default`?"),
                environment("a misspelt named store beside the default",
                        Map.of("IDEMPOTENT_STORE_URL", "jdbc:h2:mem:d", "IDEMPOTENT_STORE_BILING_URL", "jdbc:h2:mem:b"),
                        "store biling is configured (IDEMPOTENT_STORE_BILING_URL)", "the tools use default, billing",
                        "did you mean `billing`?"),
                property("a loaded-later switch that names another store",
                        Map.of("idempotent.store.audit.url", "jdbc:h2:mem:a", "idempotent.store.mail.url",
                                "jdbc:h2:mem:m", "idempotent.stores.loaded-later", "mail"),
                        "store audit is configured (idempotent.store.audit.url)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("misspeltStoreNames")
    void aConfiguredStoreThatNoToolUsesIsRefused(Mistake mistake) {
        assertThatThrownBy(() -> new RuntimeConfiguration(mistake.properties(), mistake.environment())
                .requireUsedBy(java.util.Set.of("default", "billing")))
                .isInstanceOf(StoreConfigurationException.class)
                .hasMessageContainingAll(mistake.message().toArray(String[]::new))
                .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isFalse());
    }

    /** The explicit switch admits a configured store for tools loaded later; the default needs none. */
    @ParameterizedTest
    @MethodSource("storesForLaterTools")
    void aStoreForToolsLoadedLaterIsAdmittedByNameOnly(Map<String, String> properties, Map<String, String> environment) {
        assertThatCode(() -> new RuntimeConfiguration(properties, environment).requireUsedBy(java.util.Set.of()))
                .doesNotThrowAnyException();
    }

    static Stream<Arguments> storesForLaterTools() {
        return Stream.of(
                Arguments.of(Map.of("idempotent.store.billing.url", "jdbc:h2:mem:b", "idempotent.stores.loaded-later",
                        "billing"), Map.of()),
                Arguments.of(Map.of("idempotent.agent.stores.loaded-later", "billing, mail"),
                        Map.of("IDEMPOTENT_STORE_BILLING_URL", "jdbc:h2:mem:b", "IDEMPOTENT_STORE_MAIL_URL",
                                "jdbc:h2:mem:m")),
                Arguments.of(Map.of(), Map.of("IDEMPOTENT_STORE_URL", "jdbc:h2:mem:d")),
                Arguments.of(Map.of(), Map.of()));
    }

    @ParameterizedTest
    @MethodSource("knownKeys")
    void knownPropertiesAreAccepted(Map<String, String> properties) {
        assertThatCode(() -> new RuntimeConfiguration(properties, Map.of()).stores()).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @MethodSource("knownVariables")
    void knownVariablesAreAccepted(Map<String, String> environment) {
        assertThatCode(() -> new RuntimeConfiguration(Map.of(), environment).stores()).doesNotThrowAnyException();
    }

    static Stream<Map<String, String>> knownVariables() {
        return Stream.of(
                Map.of("IDEMPOTENT_STORE_URL", "jdbc:postgresql://db/app", "IDEMPOTENT_STORE_USER", "app",
                        "IDEMPOTENT_STORE_PASSWORD", "x", "IDEMPOTENT_STORE_CONNECT_TIMEOUT", "PT1S",
                        "IDEMPOTENT_STORE_ANSWER_QUEUE_SIZE", "2000", "IDEMPOTENT_STORE_CLOSE_TIMEOUT", "PT10S"),
                Map.of("IDEMPOTENT_STORE_BILLING_EU_URL", "jdbc:h2:mem:b", "IDEMPOTENT_STORE_BILLING_EU_POOL_SIZE", "3",
                        "IDEMPOTENT_STORE_DEFAULT_URL", "jdbc:h2:mem:d"),
                Map.of("IDEMPOTENT_CONSOLE_TOKEN", "t", "IDEMPOTENT_TELEMETRY_OPERATION_KEYS", "false"),
                // Variables outside the prefix are not the library's business.
                Map.of("IDEMPOTENTSTORE_URL", "x", "PATH", "/bin"));
    }

    /** The system properties the tool-call tests below set, cleared after each. */
    private static final List<String> SET_BY_CALLS = List.of("idempotent.store.ulr", "idempotent.store.defualt.url",
            "idempotent.agent.store.defualt.url", "idempotent.store.billing.url", "idempotent.stores.loaded-later",
            "idempotent.store.url", "idempotent.store.user", "idempotent.store.password", "idempotent.store.ledgr.url",
            "idempotent.store.ledger.url", "idempotent.store.ledger.user", "idempotent.store.ledger.password");

    @AfterEach
    void forgetTheGlobalRuntime() {
        SET_BY_CALLS.forEach(System::clearProperty);
        IdempotentRuntime.setGlobal(null);
        RuntimeAccess.forgetGlobal();
    }

    /**
     * The agent's path: a JVM whose store URL is misspelt refuses the tool call before any claim,
     * and the body does not run, on the store the user meant or on an embedded one.
     */
    @OnBothDatabases
    void aToolCallWithAMisspeltStoreUrlDoesNotRunItsBody(TestDatabase db) {
        RuntimeAccess.forgetGlobal();
        System.setProperty("idempotent.store.ulr", db.url());
        FakeProvider body = new FakeProvider();

        assertThatThrownBy(() -> {
            io.idempotent.runtime.agent.ToolCall call = ToolDispatcher.enter(DispatchedTools.class, REFUND, new Object[] {"inv_1"});
            call.exit(body.apply("refund inv_1"), null);
        }).isInstanceOf(StoreConfigurationException.class).hasMessageContaining("idempotent.store.ulr")
                .hasMessageContaining("idempotent.store.url");
        assertThat(body.invocations()).isZero();
        assertThat(db.operationRows()).isZero();
    }

    /**
     * A misspelt store name (issue 43), as a system property and as an agent argument (which the
     * agent hands over as {@code idempotent.agent.*}): the store the user meant is configured under
     * a name no tool uses. The tool call of the default store is refused before any claim, naming
     * the misspelt store and the nearest store a tool uses; its body runs neither on the embedded
     * default nor anywhere else.
     */
    @OnBothDatabases
    void aToolCallWithAMisspeltStoreNameDoesNotRunItsBody(TestDatabase db) {
        for (String property : List.of("idempotent.store.defualt.url", "idempotent.agent.store.defualt.url")) {
            RuntimeAccess.forgetGlobal();
            System.setProperty(property, db.url());
            FakeProvider body = new FakeProvider();

            assertThatThrownBy(() -> {
                io.idempotent.runtime.agent.ToolCall call = ToolDispatcher.enter(DispatchedTools.class, REFUND,
                        new Object[] {"inv_1"});
                call.exit(body.apply("refund inv_1"), null);
            }).as(property).isInstanceOf(StoreConfigurationException.class)
                    .hasMessageContainingAll("store defualt is configured (" + property + ")",
                            "no tool of this JVM uses it", "did you mean `default`?");
            assertThat(body.invocations()).as(property).isZero();
            assertThat(db.operationRows()).as(property).isZero();
            System.clearProperty(property);
        }
    }

    /**
     * Once any store URL is configured, the embedded default is never chosen for a tool: the
     * switch that admits a store for tools loaded later does not change that, and the call of a
     * tool on the default store is refused, its body not run.
     */
    @OnBothDatabases
    void aToolOfTheDefaultStoreIsRefusedWhenOnlyANamedStoreIsConfigured(TestDatabase db) {
        RuntimeAccess.forgetGlobal();
        System.setProperty("idempotent.store.billing.url", db.url());
        System.setProperty("idempotent.stores.loaded-later", "billing");
        FakeProvider body = new FakeProvider();

        assertThatThrownBy(() -> {
            io.idempotent.runtime.agent.ToolCall call = ToolDispatcher.enter(DispatchedTools.class, REFUND,
                    new Object[] {"inv_1"});
            call.exit(body.apply("refund inv_1"), null);
        }).isInstanceOf(StoreConfigurationException.class).hasMessageContainingAll("store \"default\"",
                "the embedded H2 default is used only when no store URL is configured at all",
                "billing (idempotent.store.billing.url)");
        assertThat(body.invocations()).isZero();
        assertThat(db.operationRows()).isZero();
    }

    /**
     * The runtime built from the configuration at the first call reads the stores the tools use
     * from the release-gate tables its class loaders see (here the thread's context class loader,
     * as in a Spring Boot jar or a web application): a misspelt name of a listed store is refused
     * with the listed store as the nearest; the right name opens both stores.
     */
    @OnBothDatabases
    void theConfiguredStoresAreCheckedAgainstTheReleaseGateTablesTheRuntimeSees(TestDatabase db) throws Exception {
        java.nio.file.Path root = java.nio.file.Files.createTempDirectory("tables");
        java.nio.file.Path table = java.nio.file.Files.createDirectories(root.resolve("META-INF/idempotent"))
                .resolve("tools.json");
        java.nio.file.Files.writeString(table, "{\"tools\": [{\"name\": \"post_entry\", \"class\":"
                + " \"com.example.Ledger\", \"method\": \"post(java.lang.String entryId)\", \"store\": \"ledger\"}]}");
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (java.net.URLClassLoader tables = new java.net.URLClassLoader(new java.net.URL[] {root.toUri().toURL()},
                previous)) {
            thread.setContextClassLoader(tables);
            System.setProperty("idempotent.store.url", db.url());
            System.setProperty("idempotent.store.user", db.user());
            System.setProperty("idempotent.store.password", db.password());
            System.setProperty("idempotent.store.ledgr.url", db.url());

            assertThatThrownBy(IdempotentRuntime::fromEnvironment).isInstanceOf(StoreConfigurationException.class)
                    .hasMessageContaining("store ledgr is configured (idempotent.store.ledgr.url), but no tool of this"
                            + " JVM uses it (the tools use default, ledger); did you mean `ledger`?");

            System.clearProperty("idempotent.store.ledgr.url");
            System.setProperty("idempotent.store.ledger.url", db.url());
            System.setProperty("idempotent.store.ledger.user", db.user());
            System.setProperty("idempotent.store.ledger.password", db.password());
            try (IdempotentRuntime runtime = IdempotentRuntime.fromEnvironment()) {
                assertThat(runtime.describeStores()).hasSize(2).anySatisfy(line -> assertThat(line)
                        .startsWith("store ledger: "));
            }
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
