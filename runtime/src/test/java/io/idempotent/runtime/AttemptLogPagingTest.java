package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A looping caller can give one key thousands of answers, and every one is written; the
 * operator API reads a key's attempt log a page at a time, oldest first, and a lookup without a
 * page reads at most {@link Operations#DEFAULT_ATTEMPT_PAGE} of them.
 */
class AttemptLogPagingTest {

    private static final ToolPolicy TOOL = Policies.downstreamKey("refund", Retry.SAFE).build();

    /** One execution and {@code replays} duplicates: {@code replays + 1} entries in the attempt log. */
    private static void answer(IdempotentRuntime runtime, String key, int replays) {
        for (int i = 0; i <= replays; i++) {
            runtime.call(TOOL, key, Map.of("invoice", "inv_1"), String.class, () -> "re_1");
        }
    }

    private static List<AttemptRecord> page(IdempotentRuntime runtime, int from, int limit) {
        return runtime.operations().find("default", "refund", "k:1", from, limit).orElseThrow().attemptLog();
    }

    @OnBothDatabases
    void pagesFollowEachOtherOldestFirstAndAddUpToTheWholeLog(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        answer(runtime, "k:1", 4);
        List<AttemptRecord> whole = runtime.operations().find("refund", "k:1").orElseThrow().attemptLog();
        assertThat(whole).hasSize(5);
        assertThat(whole.get(0).outcome()).isEqualTo(AttemptOutcome.COMPLETED);

        List<AttemptRecord> paged = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        for (int from = 0; from < 6; from += 2) {
            List<AttemptRecord> page = page(runtime, from, 2);
            sizes.add(page.size());
            paged.addAll(page);
        }
        assertThat(sizes).containsExactly(2, 2, 1);
        assertThat(paged).isEqualTo(whole);
        assertThat(page(runtime, 5, 2)).isEmpty();
    }

    @OnBothDatabases
    void aLookupWithoutAPageReadsAtMostTheDefaultPage(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        answer(runtime, "k:1", Operations.DEFAULT_ATTEMPT_PAGE);

        OperationRecord record = runtime.operations().find("refund", "k:1").orElseThrow();
        assertThat(record.attemptLog()).hasSize(Operations.DEFAULT_ATTEMPT_PAGE);
        assertThat(record.attempts()).isEqualTo(1);
        // Every answer was written: the next page holds the last one.
        assertThat(page(runtime, Operations.DEFAULT_ATTEMPT_PAGE, 10)).singleElement()
                .extracting(AttemptRecord::outcome).isEqualTo(AttemptOutcome.REPLAYED);
    }

    @OnBothDatabases
    void aPageStartsAtZeroOrLaterAndHoldsAtLeastOneEntry(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        answer(runtime, "k:1", 0);
        assertThatThrownBy(() -> page(runtime, -1, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("attemptsFrom");
        assertThatThrownBy(() -> page(runtime, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("attemptLimit");
    }
}
