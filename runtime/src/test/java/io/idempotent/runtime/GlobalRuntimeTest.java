package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.agent.ToolDispatcher;
import io.idempotent.runtime.agent.DispatchedTools;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.RuntimeAccess;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Once the application set its global runtime, a closed or cleared one refuses calls instead of
 * falling back to the embedded store (where a key completed in the application's database would
 * run again).
 */
class GlobalRuntimeTest {

    private static final String REFUND = "refund(Ljava/lang/String;)Ljava/lang/String;";

    @BeforeEach
    void aFallbackWouldBeAWorkingStore() {
        // Were the runtime to fall back, it would find a working store (and the test would see it).
        System.setProperty("idempotent.store.url", "jdbc:h2:mem:global-fallback;DB_CLOSE_DELAY=-1");
    }

    @AfterEach
    void forget() {
        System.clearProperty("idempotent.store.url");
        IdempotentRuntime.setGlobal(null);
        RuntimeAccess.forgetGlobal();
    }

    @OnBothDatabases
    void aClosedGlobalRuntimeRefusesCallsInsteadOfFallingBack(TestDatabase db) throws Throwable {
        IdempotentRuntime app = db.runtime();
        IdempotentRuntime.setGlobal(app);
        assertThat(ToolDispatcher.enter(DispatchedTools.class, REFUND, new Object[] {"inv_1"}).exit("ok", null))
                .isEqualTo("ok");
        app.close();

        assertThatThrownBy(IdempotentRuntime::global).isInstanceOf(StoreConfigurationException.class)
                .hasMessageContaining("closed").hasMessageContaining("setGlobal");
        assertThatThrownBy(() -> ToolDispatcher.enter(DispatchedTools.class, REFUND, new Object[] {"inv_1"}))
                .isInstanceOf(StoreConfigurationException.class)
                .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isFalse());
    }

    @OnBothDatabases
    void aClearedGlobalRuntimeRefusesCalls(TestDatabase db) {
        IdempotentRuntime.setGlobal(db.runtime());
        IdempotentRuntime.setGlobal(null);

        assertThatThrownBy(() -> ToolDispatcher.enter(DispatchedTools.class, REFUND, new Object[] {"inv_1"}))
                .isInstanceOf(StoreConfigurationException.class).hasMessageContaining("cleared");
        assertThat(db.operationRows()).isZero();
    }

    @OnBothDatabases
    void aClosedRuntimeRefusesCallsEvenOnTheApplicationsOwnDataSource(TestDatabase db) {
        IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", new io.idempotent.runtime.testing.CountingDataSource(db)).build();
        runtime.close();
        FakeProvider provider = new FakeProvider();
        ToolPolicy tool = Policies.downstreamKey("refund", Retry.SAFE).build();

        assertThatThrownBy(() -> runtime.call(tool, "k:1", Map.of(), String.class, () -> provider.apply("x")))
                .isInstanceOf(StoreConfigurationException.class).hasMessageContaining("closed");
        assertThat(provider.invocations()).isZero();
    }

    @OnBothDatabases
    void anApplicationThatNeverConfiguredOneGetsTheRuntimeFromTheEnvironment(TestDatabase db) {
        RuntimeAccess.forgetGlobal();
        IdempotentRuntime fromEnvironment = IdempotentRuntime.global();
        assertThat(fromEnvironment.describeStores()).singleElement().asString().contains("global-fallback");
        assertThat(IdempotentRuntime.global()).isSameAs(fromEnvironment);
        fromEnvironment.close();
    }
}
