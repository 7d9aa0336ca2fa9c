package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The store's latency reaches the metrics listener: one claim latency per call that asked the
 * store, one completion latency per attempt that completed, each the time the statement took (a
 * duration of this machine's clock, never negative and nowhere near an hour).
 */
class StoreLatencyMetricsTest {

    private static final Duration SANE = Duration.ofMinutes(10);

    /** Records each latency reported, by kind. */
    private static final class Latencies implements MetricsListener {
        final List<String> claims = Collections.synchronizedList(new ArrayList<>());
        final List<Duration> claimTimes = Collections.synchronizedList(new ArrayList<>());
        final List<String> completions = Collections.synchronizedList(new ArrayList<>());
        final List<Duration> completionTimes = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void claimLatency(String tool, Duration elapsed) {
            claims.add(tool);
            claimTimes.add(elapsed);
        }

        @Override
        public void completionLatency(String tool, Duration elapsed) {
            completions.add(tool);
            completionTimes.add(elapsed);
        }
    }

    @OnBothDatabases
    void eachClaimAndEachCompletionReportsHowLongTheStoreTook(TestDatabase db) {
        Latencies latencies = new Latencies();
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().metrics(latencies).build());
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.SAFE).build();

        runtime.call(refund, "refund:1", Map.of("id", "1"), String.class, () -> "refunded");
        runtime.call(refund, "refund:2", Map.of("id", "2"), String.class, () -> "refunded");

        assertThat(latencies.claims).containsExactly("refund", "refund");
        assertThat(latencies.completions).containsExactly("refund", "refund");
        assertThat(latencies.claimTimes).allSatisfy(d -> assertThat(d).isBetween(Duration.ZERO, SANE));
        assertThat(latencies.completionTimes).allSatisfy(d -> assertThat(d).isBetween(Duration.ZERO, SANE));
    }
}
