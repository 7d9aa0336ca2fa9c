package io.idempotent.runtime.twins;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.KeyParts;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolPolicy;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tool class with a hand-written binding of the tool {@code refund} on the default store; its
 * twin in this package declares the same name (BadInputTest refuses the second).
 */
public final class SecondRefundTools {

    /** How often the body ran. */
    public static final AtomicInteger RUNS = new AtomicInteger();

    /** The binding, as a processor would generate it. */
    public static final ToolBinding REFUND = new ToolBinding() {
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
    };

    private SecondRefundTools() {
    }

    /** The body. */
    public static String refund(String invoiceId) {
        RUNS.incrementAndGet();
        return "Second:" + invoiceId;
    }
}
