package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

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
 * An embedded H2 store shared by several JVMs ({@code AUTO_SERVER}) changes hands when the JVM
 * that serves it stops: for a moment H2 answers "error opening database" or "database is already
 * closed". A claim that meets such an answer is made again, as a new connection would wait, rather
 * than refusing the call (ForkedAgentIT's four JVMs on the default store met it about one run in
 * three on JDK 25, before and after issue 28).
 */
class StoreHandoverTest {

    private static final ToolPolicy TOOL = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final Map<String, Object> PAYLOAD = Map.of("id", "1");
    /** The claim's insert, in both databases' claim statements. */
    private static final String CLAIM = "INSERT INTO tool_operations (";

    @OnBothDatabases
    void aClaimThatMeetsAHandoverBeforeReachingTheDatabaseIsMadeAgainAndTheCallGoesOn(TestDatabase db) {
        db.runtime().call(TOOL, "refund:schema", PAYLOAD, String.class, () -> "creates the schema");
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().schema(SchemaMode.CREATE)
                .store("default", faulty).build());
        FakeProvider provider = new FakeProvider();
        faulty.breakUpdates(CLAIM, 2, Strike.H2_HANDOVER);

        assertThat(runtime.call(TOOL, "refund:1", PAYLOAD, String.class, () -> provider.apply("x")))
                .isEqualTo("done:x");
        assertThat(faulty.injected()).isEqualTo(2);
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status("refund:1")).isEqualTo("completed");
    }
}
