package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.FaultyDataSource;
import io.idempotent.runtime.testing.FaultyDataSource.Strike;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.Map;

/**
 * Only a missing or incomplete schema (SQLState class 42) is a configuration error: a connection
 * lost while the schema is being checked is the store being unavailable, which the next call
 * tries again. Either way the body does not run.
 */
class SchemaValidationFailureTest {

    private static final ToolPolicy TOOL = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final Map<String, Object> PAYLOAD = Map.of("id", "1");
    /** The schema check's query of the operations table. */
    private static final String CHECK = "FROM tool_operations WHERE 1 = 0";

    @OnBothDatabases
    void aConnectionLostWhileValidatingIsRetryableAndTheNextCallValidatesAgain(TestDatabase db) {
        assertRetriedAfterALostConnection(db, SchemaMode.VALIDATE);
    }

    @OnBothDatabases
    void aConnectionLostWhileCheckingACreatedSchemaIsRetryableToo(TestDatabase db) {
        assertRetriedAfterALostConnection(db, SchemaMode.CREATE);
    }

    @OnBothDatabases
    void anEmbeddedStoreChangingHandsWhileTheSchemaIsPreparedIsWaitedForAndTheCallGoesOn(TestDatabase db) {
        db.runtime().call(TOOL, "refund:schema", PAYLOAD, String.class, () -> "creates the schema");
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().schema(SchemaMode.CREATE)
                .store("default", faulty).build());
        FakeProvider provider = new FakeProvider();
        faulty.breakUpdates(CHECK, 2, Strike.H2_HANDOVER);

        // Before: the first call failed with "could not prepare the schema" although a moment
        // later the store answered (several JVMs starting at once on the embedded store).
        assertThat(runtime.call(TOOL, "refund:1", PAYLOAD, String.class, () -> provider.apply("x")))
                .isEqualTo("done:x");
        assertThat(faulty.injected()).isEqualTo(2);
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status("refund:1")).isEqualTo("completed");
    }

    private static void assertRetriedAfterALostConnection(TestDatabase db, SchemaMode mode) {
        db.runtime().call(TOOL, "refund:schema", PAYLOAD, String.class, () -> "creates the schema");
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().schema(mode).store("default", faulty)
                .build());
        FakeProvider provider = new FakeProvider();
        faulty.breakUpdates(CHECK, 1, Strike.BEFORE_EXECUTING);

        assertThatThrownBy(() -> runtime.call(TOOL, "refund:1", PAYLOAD, String.class, () -> provider.apply("x")))
                .isInstanceOfSatisfying(StoreUnavailableException.class, e -> assertThat(e.retryable()).isTrue());
        assertThat(faulty.injected()).isEqualTo(1);
        assertThat(provider.invocations()).isZero();
        assertThat(db.status("refund:1")).isNull();

        assertThat(runtime.call(TOOL, "refund:1", PAYLOAD, String.class, () -> provider.apply("x")))
                .isEqualTo("done:x");
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status("refund:1")).isEqualTo("completed");
    }
}
