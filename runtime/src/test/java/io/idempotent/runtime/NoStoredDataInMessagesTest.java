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
    void aPayloadConflictNamesNeitherHash(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy tool = Policies.downstreamKey("refund", Retry.SAFE).build();
        runtime.call(tool, "k:8", Map.of("amount", 1), String.class, () -> "ok");
        String stored = runtime.operations().find("refund", "k:8").orElseThrow().payloadHash();
        try (CapturedLog log = new CapturedLog()) {
            Throwable t = catchThrowable(() -> runtime.call(tool, "k:8", Map.of("amount", 2), String.class,
                    () -> "ok"));
            assertThat(t).isInstanceOf(PayloadConflictException.class).hasMessageContaining("k:8")
                    .hasMessageContaining("different payload");
            // A hash of a low-entropy payload (an amount, an id) is guessed offline from the hash.
            assertThat(everything(t)).doesNotContain(stored).doesNotContainPattern("[0-9a-f]{64}");
            assertThat(log.text()).doesNotContainPattern("[0-9a-f]{64}");
        }
    }

    /** A payload argument whose getter fails with a message that quotes a value. */
    public record Card(String number) {
        public String getLastDigits() {
            throw new IllegalStateException("cannot mask card " + number);
        }
    }

    @OnBothDatabases
    void anUnserialisablePayloadNamesTheCausesClassNotItsMessage(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy tool = Policies.downstreamKey("refund", Retry.SAFE).build();
        try (CapturedLog log = new CapturedLog()) {
            Throwable t = catchThrowable(() -> runtime.call(tool, "k:9", Map.of("card", new Card(SECRET)),
                    String.class, () -> "ok"));
            assertThat(t).isInstanceOf(PayloadNotSerializableException.class).hasMessageContaining("card")
                    .hasMessageContaining(IllegalStateException.class.getName())
                    .hasMessageContaining("@NotPayload");
            assertThat(everything(t)).doesNotContain(SECRET);
            assertThat(log.text()).doesNotContain(SECRET);
        }
        assertThat(db.operationRows()).isZero();
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

    /** A tool whose uncertain outcomes {@code reconciler} settles; the first call leaves one. */
    private static ToolPolicy reconciledBy(IdempotentRuntime runtime, String key, Reconciler<?> reconciler) {
        ToolPolicy tool = ToolPolicy.builder("charge").keyTemplate("test:{id}").downstreamKey(false)
                .retry(Retry.SAFE).reconciler(() -> reconciler, "ChargeReconciler").build();
        catchThrowable(() -> runtime.call(tool, key, Map.of(), String.class, () -> {
            throw new IllegalStateException("reply lost");
        }));
        return tool;
    }

    /** Every message of {@code t} and of its causes and suppressed exceptions, without stack frames. */
    private static String messages(Throwable t) {
        StringBuilder out = new StringBuilder();
        java.util.ArrayDeque<Throwable> todo = new java.util.ArrayDeque<>(java.util.List.of(t));
        java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        while (!todo.isEmpty()) {
            Throwable next = todo.pop();
            if (seen.add(next)) {
                out.append(next).append('\n');
                if (next.getCause() != null) {
                    todo.push(next.getCause());
                }
                todo.addAll(java.util.List.of(next.getSuppressed()));
            }
        }
        return out.toString();
    }

    /** The reconciler's free-text reason, as its attempt log keeps it for the operator. */
    private static String reconcilerDetail(IdempotentRuntime runtime, String key) {
        return runtime.operations().find("charge", key).orElseThrow().attemptLog().stream()
                .filter(a -> a.outcome() == AttemptOutcome.RECONCILED_UNKNOWN).map(AttemptRecord::detail)
                .reduce("", String::concat);
    }

    @OnBothDatabases
    void aReconcilersExceptionTextReachesTheRecordButNoMessageOrLog(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        String body = "card 4111 declined: body {" + SECRET + "}";
        ToolPolicy tool = reconciledBy(runtime, "k:6", op -> {
            throw new RuntimeException(body);
        });
        try (CapturedLog log = new CapturedLog()) {
            Throwable t = catchThrowable(() -> runtime.call(tool, "k:6", Map.of(), String.class, () -> "again"));
            assertThat(t).isInstanceOf(NeedsReconciliationException.class).hasMessageContaining("charge")
                    .hasMessageContaining("k:6").hasMessageContaining("needs_reconciliation")
                    .hasMessageContaining("ChargeReconciler").hasMessageContaining(RuntimeException.class.getName())
                    .hasMessageContaining("show charge k:6");
            assertThat(messages(t)).doesNotContain(SECRET).doesNotContain("4111");
            assertThat(everything(t)).doesNotContain(SECRET);
            assertThat(log.text()).contains("k:6").contains(RuntimeException.class.getName())
                    .doesNotContain(SECRET).doesNotContain("4111");
        }
        assertThat(reconcilerDetail(runtime, "k:6")).contains(body);
    }

    @OnBothDatabases
    void aReconcilersUnknownReasonReachesTheRecordButNoMessageOrLog(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy tool = reconciledBy(runtime, "k:7", op -> Reconciliation.unknown(SECRET + " text"));
        try (CapturedLog log = new CapturedLog()) {
            Throwable t = catchThrowable(() -> runtime.call(tool, "k:7", Map.of(), String.class, () -> "again"));
            assertThat(t).isInstanceOf(NeedsReconciliationException.class).hasMessageContaining("charge")
                    .hasMessageContaining("k:7").hasMessageContaining("ChargeReconciler answered UNKNOWN")
                    .hasMessageContaining("show charge k:7");
            assertThat(everything(t)).doesNotContain(SECRET);
            assertThat(log.text()).doesNotContain(SECRET);
        }
        assertThat(reconcilerDetail(runtime, "k:7")).isEqualTo(SECRET + " text");
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
