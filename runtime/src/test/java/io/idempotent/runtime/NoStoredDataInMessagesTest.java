package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.CapturedLog;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/**
 * Exception messages (with their causes and stack traces) and log output never carry a stored
 * payload, result or error body: they reach models, users and logs that must not see another
 * caller's data. They name the tool, the key, the status or hashes, and where an operator looks.
 */
class NoStoredDataInMessagesTest {

    private static final String SECRET = "SECRET-7f3a";

    record Refund(String refundId, long amountCents) {
    }

    record RefundV2(String id, long amountCents) {
    }

    /** The whole text a user or a log could see of {@code t}: messages, causes, suppressed, trace. */
    private static String everything(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    @OnBothDatabases
    void aPayloadConflictNamesTheHashesNotTheFirstCallersPayload(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy tool = Policies.downstreamKey("refund", Retry.SAFE).build();
        try (CapturedLog log = new CapturedLog()) {
            runtime.call(tool, "k:1", Map.of("card", SECRET + "-payload"), String.class, () -> "ok");
            Throwable t = catchThrowable(() -> runtime.call(tool, "k:1", Map.of("card", "other"), String.class,
                    () -> "ok"));
            assertThat(t).isInstanceOf(PayloadConflictException.class).hasMessageContaining("refund")
                    .hasMessageContaining("k:1").hasMessageContaining("Operations.find");
            assertThat(everything(t)).doesNotContain(SECRET);
            assertThat(log.text()).doesNotContain(SECRET);
        }
    }

    @OnBothDatabases
    void reconciliationAndFailureMessagesDoNotEmbedTheStoredError(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy review = Policies.manualReview("email", Retry.SAFE).build();
        ToolPolicy never = Policies.marked("notify", Retry.NEVER).build();
        try (CapturedLog log = new CapturedLog()) {
            catchThrowable(() -> runtime.call(review, "k:2", Map.of(), String.class, () -> {
                throw new IllegalStateException(SECRET + "-error");
            }));
            Throwable uncertain = catchThrowable(() -> runtime.call(review, "k:2", Map.of(), String.class,
                    () -> "again"));
            assertThat(uncertain).isInstanceOf(NeedsReconciliationException.class).hasMessageContaining("k:2")
                    .hasMessageContaining("Operations.settleApplied");
            assertThat(everything(uncertain)).doesNotContain(SECRET);

            catchThrowable(() -> runtime.call(never, "k:3", Map.of(), String.class, () -> {
                throw new IllegalStateException(SECRET + "-never");
            }));
            Throwable refused = catchThrowable(() -> runtime.call(never, "k:3", Map.of(), String.class,
                    () -> "again"));
            assertThat(refused).isInstanceOf(OperationFailedException.class).hasMessageContaining("k:3")
                    .hasMessageContaining("failed_safe");
            assertThat(everything(refused)).doesNotContain(SECRET);
            assertThat(log.text()).doesNotContain(SECRET);
        }
    }

    @OnBothDatabases
    void anUnreadableStoredResultIsNotQuoted(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy tool = Policies.downstreamKey("refund", Retry.SAFE).build();
        try (CapturedLog log = new CapturedLog()) {
            runtime.call(tool, "k:4", Map.of(), Refund.class, () -> new Refund(SECRET + "-result", 1250));
            Throwable renamed = catchThrowable(() -> runtime.call(tool, "k:4", Map.of(), RefundV2.class,
                    () -> new RefundV2("x", 1)));
            assertThat(renamed).isInstanceOf(ResultNotReplayableException.class).hasMessageContaining("refundId");
            assertThat(everything(renamed)).doesNotContain(SECRET);

            runtime.call(tool, "k:5", Map.of(), String.class, () -> SECRET + "-text");
            Throwable retyped = catchThrowable(() -> runtime.call(tool, "k:5", Map.of(), int.class, () -> 1));
            assertThat(retyped).isInstanceOf(ResultNotReplayableException.class).hasMessageContaining("int");
            assertThat(everything(retyped)).doesNotContain(SECRET);
            assertThat(log.text()).doesNotContain(SECRET);
        }
    }
}
