package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.KeyParts;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.Map;

/** Running a tool from a binding (as generated bindings do), with {step} in its key. */
class BindingCallTest {

    /** What the processor would generate for {@code refund(String invoiceId, long amount)}. */
    static final ToolBinding REFUND = new ToolBinding() {
        private final ToolPolicy policy = Policies.downstreamKey("refund", Retry.SAFE)
                .keyTemplate("refund:{invoiceId}:{step}").payloadParameters(java.util.List.of("invoiceId", "amount"))
                .build();

        @Override
        public ToolPolicy policy() {
            return policy;
        }

        @Override
        public String methodDescriptor() {
            return "refund(Ljava/lang/String;J)Ljava/lang/String;";
        }

        @Override
        public String key(Object[] args) {
            return "refund:" + KeyParts.text("refund", "invoiceId", args[0]) + ":" + KeyParts.step("refund");
        }

        @Override
        public Map<String, Object> payload(Object[] args) {
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("invoiceId", args[0]);
            payload.put("amount", args[1]);
            return payload;
        }

        @Override
        public Type resultType() {
            return String.class;
        }
    };

    @OnBothDatabases
    void stepKeyIsPartOfTheOperationKey(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        try (Step ignored = Step.begin("approved_17")) {
            runtime.call(REFUND, new Object[] {"invoice_842", 1250L}, () -> provider.apply("refund"));
            runtime.call(REFUND, new Object[] {"invoice_842", 1250L}, () -> provider.apply("refund"));
        }
        try (Step ignored = Step.begin("approved_18")) {
            runtime.call(REFUND, new Object[] {"invoice_842", 1250L}, () -> provider.apply("refund"));
        }
        assertThat(provider.effects()).isEqualTo(2);
        assertThat(db.status("refund:invoice_842:approved_17")).isEqualTo("completed");
        assertThat(db.status("refund:invoice_842:approved_18")).isEqualTo("completed");
    }

    @OnBothDatabases
    void missingStepFailsBeforeAnythingIsClaimed(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        assertThatThrownBy(() -> runtime.call(REFUND, new Object[] {"invoice_842", 1250L},
                () -> provider.apply("refund")))
                .isInstanceOf(MissingOperationKeyException.class).hasMessageContaining("{step}")
                .hasMessageContaining("Step.begin");
        assertThatThrownBy(() -> {
            try (Step ignored = Step.begin("approved_17")) {
                runtime.call(REFUND, new Object[] {null, 1250L}, () -> provider.apply("refund"));
            }
        }).isInstanceOf(MissingOperationKeyException.class).hasMessageContaining("{invoiceId} is null");
        assertThat(provider.invocations()).isZero();
        assertThat(db.operationRows()).isZero();
    }
}
