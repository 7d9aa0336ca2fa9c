package io.idempotent.runtime.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.testing.Database;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.StatementHookDataSource;
import io.idempotent.runtime.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Completions sent while another is in flight go to the store together (PostgreSQL: one
 * statement; H2: each alone), and each caller gets its own outcome: a fenced-off attempt its
 * {@link Transition.LostRace}, a value the server refuses its own failure, every other its
 * {@link Transition.Applied}, with its row completed.
 */
class CompletionBatchesTest {

    private static final String TOOL = "refund";
    private static final int FOLLOWERS = 6;
    private static final String COMPLETION = "SET status = 'completed', result_json =";

    @OnBothDatabases
    void completionsQueuedBehindOneInFlightAreAnsweredEachWithItsOwnOutcome(TestDatabase db) throws Exception {
        assertThat(scenario(db, "b", false)).as("statements that carried the queued completions together")
                .isEqualTo(db.kind() == Database.POSTGRESQL ? 1 : 0);
        // A value the server refuses fails the batch before anything is written: each is sent
        // again alone, and only the refused one fails.
        scenario(db, "v", db.kind() == Database.POSTGRESQL);
    }

    /**
     * Two completions of one key queued together, the attempt's own and a fenced-off one: the
     * row's one change is the attempt's, and the fenced-off caller is told it lost, never that it
     * applied (a batch holds each key once).
     */
    @OnBothDatabases
    void twoCompletionsOfOneKeyQueuedTogetherGetOneAppliedAndOneLostRace(TestDatabase db) throws Exception {
        StatementHookDataSource hooked = new StatementHookDataSource(db);
        JdbcOperationStore store = new JdbcOperationStore("default", hooked, Dialect.detect(db.url()),
                SchemaMode.CREATE, null);
        try (QueuedCallers followers = new QueuedCallers(2)) {
            List<Long> tokens = new ArrayList<>();
            for (int i = 0; i <= 1; i++) {
                tokens.add(((ClaimResult.Inserted) store.claim(new ClaimRequest("a-" + i, "twice" + i, TOOL, "h",
                        "{}", Duration.ofHours(1), Duration.ofDays(1), true))).leaseToken());
            }
            hooked.afterStatement(COMPLETION, () -> {
                for (String attempt : List.of("a-1", "someone-else")) {
                    followers.send(() -> store.complete(TOOL, "twice1", tokens.get(1), attempt,
                            "\"" + attempt + "\"", new AttemptEnd(null, null)));
                }
                followers.awaitQueued("both completions to wait behind the first");
            });
            store.complete(TOOL, "twice0", tokens.get(0), "a-0", "\"r0\"", new AttemptEnd(null, null));
            List<Object> outcomes = followers.outcomes();
            assertThat(outcomes.get(0)).as("the attempt's own completion").isInstanceOf(Transition.Applied.class);
            assertThat(outcomes.get(1)).as("the fenced-off completion").isInstanceOf(Transition.LostRace.class);
            assertThat(db.queryString("SELECT result_json FROM tool_operations WHERE operation_key = ?", "twice1"))
                    .isEqualTo("\"a-1\"");
        } finally {
            store.close();
        }
    }

    /**
     * Completes {@code FOLLOWERS + 1} claims of keys starting with {@code p}, the others sent while
     * the first is in flight; returns how many statements carried several completions and ran.
     */
    private static int scenario(TestDatabase db, String p, boolean refusedValue) throws Exception {
        StatementHookDataSource hooked = new StatementHookDataSource(db);
        JdbcOperationStore store = new JdbcOperationStore("default", hooked, Dialect.detect(db.url()),
                SchemaMode.CREATE, null);
        try (QueuedCallers followers = new QueuedCallers(FOLLOWERS)) {
            List<Long> tokens = new ArrayList<>();
            for (int i = 0; i <= FOLLOWERS; i++) {
                ClaimResult claim = store.claim(new ClaimRequest("a-" + i, p + i, TOOL, "h", "{}",
                        Duration.ofHours(1), Duration.ofDays(1), true));
                tokens.add(((ClaimResult.Inserted) claim).leaseToken());
            }
            AtomicInteger batches = new AtomicInteger();
            // While the first completion is in flight (its statement has run, its call not yet
            // returned), the others are sent and queue behind it.
            hooked.afterStatement(COMPLETION, () -> {
                for (int i = 1; i <= FOLLOWERS; i++) {
                    int n = i;
                    // Follower 1 is fenced off (not its attempt); follower 2's result the
                    // server refuses (PostgreSQL's text takes no NUL character).
                    String attempt = n == 1 ? "someone-else" : "a-" + n;
                    String result = n == 2 && refusedValue ? "\"nul\u0000\"" : "\"r" + n + "\"";
                    followers.send(() -> store.complete(TOOL, p + n, tokens.get(n), attempt, result,
                            new AttemptEnd(null, null)));
                }
                followers.awaitQueued("the other completions to wait behind the first");
                hooked.afterStatement("FROM unnest(", batches::incrementAndGet);
            });

            Transition first = store.complete(TOOL, p + 0, tokens.get(0), "a-0", "\"r0\"", new AttemptEnd(null, null));
            assertThat(first).isInstanceOf(Transition.Applied.class);
            List<Object> outcomes = followers.outcomes();
            assertThat(outcomes.get(0)).as("the fenced-off attempt").isInstanceOf(Transition.LostRace.class);
            if (refusedValue) {
                assertThat(outcomes.get(1)).as("the refused value").isInstanceOf(RuntimeException.class);
                assertThat(db.status(p + 2)).isEqualTo("in_progress");
            } else {
                assertThat(outcomes.get(1)).isInstanceOf(Transition.Applied.class);
                assertThat(db.status(p + 2)).isEqualTo("completed");
            }
            for (int i = 2; i < FOLLOWERS; i++) {
                assertThat(outcomes.get(i)).as("follower " + (i + 1)).isInstanceOf(Transition.Applied.class);
                assertThat(db.status(p + (i + 1))).isEqualTo("completed");
                assertThat(db.queryString("SELECT result_json FROM tool_operations WHERE operation_key = ?",
                        p + (i + 1))).isEqualTo("\"r" + (i + 1) + "\"");
            }
            assertThat(db.status(p + 0)).isEqualTo("completed");
            assertThat(db.status(p + 1)).as("fenced off: unchanged").isEqualTo("in_progress");
            if (db.kind() == Database.POSTGRESQL) {
                assertThat(db.queryLong("SELECT count(*) FROM tool_operations_open WHERE operation_key LIKE ?", p + "%"))
                        .as("open rows left: the fenced-off one, and the refused one").isEqualTo(refusedValue ? 2 : 1);
            }
            return batches.get();
        } finally {
            store.close();
        }
    }
}
