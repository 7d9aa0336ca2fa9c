package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.CountingDataSource;
import io.idempotent.runtime.testing.Database;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.Map;

/**
 * How many statements (database round trips) each outcome costs; a change that adds one to the
 * hot path shows up here. The attempt log is one of them in every outcome.
 */
class RoundTripTest {

    private static final ToolPolicy TOOL = Policies.downstreamKey("refund", Retry.SAFE).build();

    @OnBothDatabases
    void statementsPerOutcome(TestDatabase db) {
        CountingDataSource counting = new CountingDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", counting).build());
        runtime.call(TOOL, "warm-up", Map.of(), String.class, () -> "schema is ready now");

        int before = counting.statements();
        runtime.call(TOOL, "k", Map.of("a", 1), String.class, () -> "fresh");
        int fresh = counting.statements() - before;

        before = counting.statements();
        runtime.call(TOOL, "k", Map.of("a", 1), String.class, () -> "never");
        int replay = counting.statements() - before;

        before = counting.statements();
        assertThatThrownBy(() -> runtime.call(TOOL, "k", Map.of("a", 2), String.class, () -> "never"))
                .isInstanceOf(PayloadConflictException.class);
        int conflict = counting.statements() - before;

        // fresh: claim, attempt row, completion, attempt outcome. PostgreSQL reads the existing
        // row inside the claim statement; H2 needs a second statement for it.
        int existingRowRead = db.kind() == Database.POSTGRESQL ? 1 : 2;
        assertThat(fresh).isEqualTo(4);
        assertThat(replay).isEqualTo(existingRowRead + 1);
        assertThat(conflict).isEqualTo(existingRowRead + 1);
    }
}
