package io.idempotent.runtime.agent;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.KeyParts;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import io.idempotent.runtime.binding.ToolPolicy;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The binding the processor would generate for {@link DispatchedTools}. */
public final class DispatchedTools_IdempotentTools implements ToolBindings {

    @Override
    public Class<?> toolClass() {
        return DispatchedTools.class;
    }

    @Override
    public List<ToolBinding> tools() {
        return List.of(new ToolBinding() {
            private final ToolPolicy policy = ToolPolicy.builder("refund").keyTemplate("refund:{invoiceId}")
                    .downstreamKey(true).downstreamRetention(Duration.ofDays(1)).retry(Retry.SAFE)
                    .payloadParameters(List.of("invoiceId")).build();

            @Override
            public ToolPolicy policy() {
                return policy;
            }

            @Override
            public String methodDescriptor() {
                return "refund(Ljava/lang/String;)Ljava/lang/String;";
            }

            @Override
            public String key(Object[] args) {
                return "refund:" + KeyParts.text("refund", "invoiceId", args[0]);
            }

            @Override
            public Map<String, Object> payload(Object[] args) {
                return Map.of("invoiceId", args[0]);
            }

            @Override
            public Type resultType() {
                return String.class;
            }
        });
    }
}
