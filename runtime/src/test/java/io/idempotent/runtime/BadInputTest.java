package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.Database;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import io.idempotent.runtime.twins.FirstRefundTools;
import io.idempotent.runtime.twins.SecondRefundTools;
import java.io.InputStream;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bad input gets a clear error, no claim, and the body does not run. */
class BadInputTest {

    private static final ToolPolicy TOOL = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final Map<String, Object> PAYLOAD = Map.of("id", "1");

    @OnBothDatabases
    void keyOverFiveHundredTwelveCharactersIsRejected(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        String key = "k".repeat(513);
        assertThatThrownBy(() -> runtime.call(TOOL, key, PAYLOAD, String.class, () -> provider.apply("x")))
                .isInstanceOf(InvalidOperationKeyException.class).hasMessageContaining("513 characters");
        assertThat(provider.invocations()).isZero();
        assertThat(db.operationRows()).isZero();
        // Exactly 512 is fine.
        assertThat(runtime.call(TOOL, "k".repeat(512), PAYLOAD, String.class, () -> provider.apply("x")))
                .isEqualTo("done:x");
    }

    @OnBothDatabases
    void keyWithControlCharactersIsRejected(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        assertThatThrownBy(() -> runtime.call(TOOL, "refund:1\n2", PAYLOAD, String.class, () -> provider.apply("x")))
                .isInstanceOf(InvalidOperationKeyException.class).hasMessageContaining("U+000A");
        assertThat(provider.invocations()).isZero();
        assertThat(db.operationRows()).isZero();
    }

    @OnBothDatabases
    void payloadThatCannotBeSerialisedIsRejected(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        Map<String, Object> payload = Map.of("stream", InputStream.nullInputStream());
        assertThatThrownBy(() -> runtime.call(TOOL, "refund:1", payload, String.class, () -> provider.apply("x")))
                .isInstanceOf(PayloadNotSerializableException.class).hasMessageContaining("stream")
                .hasMessageContaining("@NotPayload");
        assertThat(provider.invocations()).isZero();
        assertThat(db.operationRows()).isZero();
    }

    @OnBothDatabases
    void unknownStoreNameIsRejected(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy billing = Policies.downstreamKey("refund", Retry.SAFE).store("billing").build();
        assertThatThrownBy(() -> runtime.call(billing, "refund:1", PAYLOAD, String.class, () -> provider.apply("x")))
                .isInstanceOf(StoreConfigurationException.class).hasMessageContaining("\"billing\"")
                .hasMessageContaining("[default]").hasMessageContaining("store.billing.url");
        assertThat(provider.invocations()).isZero();
    }

    @OnBothDatabases
    void missingSchemaInValidateModeIsRejected(TestDatabase db) {
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().schema(SchemaMode.VALIDATE).build());
        FakeProvider provider = new FakeProvider();
        assertThatThrownBy(() -> runtime.call(TOOL, "refund:1", PAYLOAD, String.class, () -> provider.apply("x")))
                .isInstanceOf(StoreConfigurationException.class).hasMessageContaining("schema is missing")
                .hasMessageContaining("V1__idempotent_tool_operations.sql");
        assertThat(provider.invocations()).isZero();
        assertThat(db.tableExists("tool_operations")).isFalse();
    }

    @OnBothDatabases
    void aSchemaWithoutTheAttemptLogViewIsRejectedInValidateMode(TestDatabase db) {
        db.runtime().call(TOOL, "refund:1", PAYLOAD, String.class, () -> "created by the first runtime");
        FakeProvider provider = new FakeProvider();
        db.update("DROP VIEW tool_operation_attempts");
        IdempotentRuntime validating = db.track(db.runtimeBuilder().schema(SchemaMode.VALIDATE).build());
        assertThatThrownBy(() -> validating.call(TOOL, "refund:3", PAYLOAD, String.class, () -> provider.apply("x")))
                .isInstanceOf(StoreConfigurationException.class).hasMessageContaining("schema is missing")
                .satisfies(e -> assertThat(e.getMessage()).containsIgnoringCase("tool_operation_attempts"))
                .hasMessageContaining("V1__idempotent_tool_operations.sql");
        assertThat(provider.invocations()).isZero();
    }

    @OnBothDatabases
    void validateModeAcceptsAnExistingSchema(TestDatabase db) {
        db.runtime().call(TOOL, "refund:1", PAYLOAD, String.class, () -> "created by the first runtime");
        IdempotentRuntime validating = db.track(db.runtimeBuilder().schema(SchemaMode.VALIDATE).build());
        assertThat(validating.call(TOOL, "refund:1", PAYLOAD, String.class, () -> "never"))
                .isEqualTo("created by the first runtime");
    }

    @Test
    void unreachableStoreFailsClosed() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        FakeProvider provider = new FakeProvider();
        try (IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", "jdbc:postgresql://127.0.0.1:" + closedPort + "/nowhere", "u", "p").build()) {
            assertThatThrownBy(() -> runtime.call(TOOL, "refund:1", PAYLOAD, String.class, () -> provider.apply("x")))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("the body did not run")
                    .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isTrue());
        }
        assertThat(provider.invocations()).isZero();
    }

    @Test
    void unsupportedUrlIsRejectedAtBuild() {
        assertThatThrownBy(() -> IdempotentRuntime.builder().store("default", "jdbc:mysql://x/y", "u", "p").build())
                .isInstanceOf(StoreConfigurationException.class).hasMessageContaining("jdbc:postgresql:");
    }

    /** Jackson can copy only mappers whose class overrides {@code copy()}, and the runtime needs its own copy. */
    @Test
    void aMapperSubclassThatCannotBeCopiedIsRejectedWhereItIsGiven() {
        ObjectMapper custom = new ObjectMapper() {
        };
        assertThatThrownBy(() -> IdempotentRuntime.builder().objectMapper(custom))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not override copy()")
                .hasMessageContaining("private copy");
    }

    /**
     * Two classes bind one tool name on one store (without a release-gate table, so only the calls
     * show it): the second is refused, naming both, instead of being answered with the first
     * one's stored result. The class path's tables are tested in the processor module
     * (SameToolNameInTwoJarsTest), where two classes are compiled apart with the processor.
     */
    @OnBothDatabases
    void aSecondClassBindingTheSameToolNameOnTheSameStoreIsRefused(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        int firstRuns = FirstRefundTools.RUNS.get();
        int secondRuns = SecondRefundTools.RUNS.get();
        Object[] args = {"inv_842"};
        assertThat(runtime.call(FirstRefundTools.REFUND, args, () -> FirstRefundTools.refund("inv_842")))
                .isEqualTo("First:inv_842");
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> runtime.call(SecondRefundTools.REFUND, args,
                    () -> SecondRefundTools.refund("inv_842")))
                    .isInstanceOf(StoreConfigurationException.class)
                    .hasMessageContaining(FirstRefundTools.class.getName())
                    .hasMessageContaining(SecondRefundTools.class.getName())
                    .hasMessageContaining("store \"default\"")
                    .hasMessageContaining("the body did not run")
                    .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isFalse());
        }
        assertThat(SecondRefundTools.RUNS.get() - secondRuns).as("second body runs").isZero();
        // The first class keeps its tool: its repeat is replayed as before.
        assertThat(runtime.call(FirstRefundTools.REFUND, args, () -> FirstRefundTools.refund("inv_842")))
                .isEqualTo("First:inv_842");
        assertThat(FirstRefundTools.RUNS.get() - firstRuns).as("first body runs").isEqualTo(1);
        assertThat(db.operationRows()).isEqualTo(1);
    }
}
