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
 * A claim that meets an embedded store changing hands is made again, but not forever: after its
 * tries (ten, a second in all) the call fails closed, saying the claim may have been recorded,
 * and the body does not run; once the store answers, the repeat runs it once.
 */
class ClaimHandoverLimitTest {

    private static final ToolPolicy TOOL = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final Map<String, Object> PAYLOAD = Map.of("id", "1");
    /** The claim's insert, in both databases' claim statements. */
    private static final String CLAIM = "INSERT INTO tool_operations (";
    /** The tries of a claim during a handover (StoreSchema.HANDOVER_TRIES). */
    private static final int TRIES = 10;

    @OnBothDatabases
    void aClaimThatMeetsAHandoverOnEveryTryFailsClosedAfterItsTries(TestDatabase db) {
        db.runtime().call(TOOL, "refund:schema", PAYLOAD, String.class, () -> "creates the schema");
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).build());
        FakeProvider provider = new FakeProvider();
        faulty.breakUpdates(CLAIM, Integer.MAX_VALUE, Strike.H2_HANDOVER);

        assertThatThrownBy(() -> runtime.call(TOOL, "refund:1", PAYLOAD, String.class, () -> provider.apply("x")))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("the claim may have been recorded")
                .hasMessageContaining("the body did not run");
        assertThat(faulty.injected()).as("tries of the claim").isEqualTo(TRIES);
        assertThat(provider.invocations()).isZero();
        assertThat(db.status("refund:1")).isNull();

        faulty.breakUpdates(CLAIM, 0, Strike.H2_HANDOVER);
        assertThat(runtime.call(TOOL, "refund:1", PAYLOAD, String.class, () -> provider.apply("x")))
                .isEqualTo("done:x");
        assertThat(provider.effects()).isEqualTo(1);
    }
}
