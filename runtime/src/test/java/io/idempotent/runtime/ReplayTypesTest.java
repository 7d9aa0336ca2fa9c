package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ResultType;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Replays read the stored JSON back into the method's generic return type. */
class ReplayTypesTest {

    record Refund(String refundId, long amountCents, Instant at) {
    }

    record RefundV2(String id, long amountCents) {
    }

    private static final ToolPolicy TOOL = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final Map<String, Object> PAYLOAD = Map.of("id", "1");
    private static final Instant AT = Instant.parse("2026-12-02T10:15:30Z");

    private static <T> void assertReplays(IdempotentRuntime runtime, String key, Type type, T value) {
        FakeProvider provider = new FakeProvider();
        T first = runtime.call(TOOL, key, PAYLOAD, type, () -> {
            provider.apply(key);
            return value;
        });
        T replayed = runtime.call(TOOL, key, PAYLOAD, type, () -> {
            provider.apply(key);
            return value;
        });
        assertThat(replayed).isEqualTo(first).isEqualTo(value);
        assertThat(provider.effects()).isEqualTo(1);
    }

    @OnBothDatabases
    void replaysRecordsCollectionsMapsOptionalsPrimitivesAndVoid(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        assertReplays(runtime, "k:record", Refund.class, new Refund("r1", 1250, AT));
        assertReplays(runtime, "k:list", new ResultType<List<Refund>>() { }.type(),
                List.of(new Refund("r1", 1, AT), new Refund("r2", 2, AT)));
        assertReplays(runtime, "k:map", new ResultType<Map<String, Refund>>() { }.type(),
                Map.of("a", new Refund("r1", 1, AT)));
        assertReplays(runtime, "k:optional", new ResultType<Optional<Refund>>() { }.type(),
                Optional.of(new Refund("r1", 1, AT)));
        assertReplays(runtime, "k:empty", new ResultType<Optional<Refund>>() { }.type(), Optional.empty());
        assertReplays(runtime, "k:int", int.class, 42);
        assertReplays(runtime, "k:void", void.class, null);
        assertThat(db.queryString("SELECT result_json FROM tool_operations WHERE operation_key = ?", "k:record"))
                .isEqualTo("{\"refundId\":\"r1\",\"amountCents\":1250,\"at\":\"2026-12-02T10:15:30Z\"}");
    }

    record Booking(String id, java.time.OffsetDateTime at) {
    }

    @OnBothDatabases
    void anOffsetDateTimeKeepsItsOffset(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        java.time.OffsetDateTime at = java.time.OffsetDateTime.parse("2026-12-02T15:45:30.250+05:30");
        assertReplays(runtime, "k:offset", Booking.class, new Booking("b1", at));
        assertReplays(runtime, "k:bare-offset", java.time.OffsetDateTime.class, at);
        java.time.ZonedDateTime zoned = java.time.ZonedDateTime.parse("2026-12-02T15:45:30.250+01:00[Europe/Paris]");
        assertReplays(runtime, "k:zoned", java.time.ZonedDateTime.class, zoned);
    }

    @OnBothDatabases
    void aBigDecimalInAnUntypedMapStaysABigDecimal(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();

        Map<String, Object> invoice = new java.util.LinkedHashMap<>();
        invoice.put("amount", new java.math.BigDecimal("1250.10"));
        invoice.put("rate", new java.math.BigDecimal("0.0000000000000000000001"));
        invoice.put("lines", List.of(Map.of("net", new java.math.BigDecimal("99999999999999999.99"))));
        Type untyped = new ResultType<Map<String, Object>>() { }.type();
        assertReplays(runtime, "k:decimal", untyped, invoice);
        Object replayed = runtime.call(TOOL, "k:decimal", PAYLOAD, untyped, () -> Map.of());
        assertThat(((Map<?, ?>) replayed).get("amount")).isInstanceOf(java.math.BigDecimal.class)
                .isEqualTo(new java.math.BigDecimal("1250.10"));
    }

    @OnBothDatabases
    void storedResultThatNoLongerFitsTheTypeIsNotReplayedAndNeverReRuns(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        runtime.call(TOOL, "k:changed", PAYLOAD, Refund.class, () -> {
            provider.apply("refund");
            return new Refund("r1", 1250, AT);
        });

        // The next deploy renamed refundId to id.
        assertThatThrownBy(() -> runtime.call(TOOL, "k:changed", PAYLOAD, RefundV2.class, () -> {
            provider.apply("refund");
            return new RefundV2("r1", 1250);
        })).isInstanceOf(ResultNotReplayableException.class)
                .hasMessageContaining("k:changed")
                .hasMessageContaining(RefundV2.class.getName())
                .hasMessageContaining("refundId");

        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status("k:changed")).isEqualTo("completed");
        assertThat(db.attemptOutcomes("k:changed")).containsExactly("COMPLETED", "NOT_REPLAYABLE");
    }
}
