package io.idempotent.runtime.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationInProgressException;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.testing.Database;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.StatementHookDataSource;
import io.idempotent.runtime.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Claims sent while another is in flight go to the store together (PostgreSQL: one statement;
 * H2: each alone), and each caller gets its own answer: a fresh key its own row, lease (from the
 * database's clock) and payload hash, an existing key the row that existed; two claims of one key
 * one fresh claim and one existing row; a value the server refuses fails only its caller; a reply
 * lost after the batch was sent is each of its callers' "may have been recorded" failure.
 */
class ClaimBatchesTest {

    private static final String TOOL = "refund";
    /** Followers 1..4 and 7 claim fresh keys, 5 claims follower 1's key again, 6 an existing key. */
    private static final int FOLLOWERS = 7;
    private static final String CLAIM = "INSERT INTO tool_operations (";
    private static final String BATCH = "FROM tool_operations t JOIN input i";

    private static final ToolPolicy RACED = Policies.downstreamKey(TOOL, Retry.SAFE).lease(Duration.ofMinutes(5))
            .build();

    private enum Variant { PLAIN, REFUSED_VALUE, LOST_REPLY }

    @OnBothDatabases
    void claimsQueuedBehindOneInFlightAreAnsweredEachWithItsOwnOutcome(TestDatabase db) throws Exception {
        boolean postgres = db.kind() == Database.POSTGRESQL;
        assertThat(scenario(db, "b", Variant.PLAIN)).as("statements that carried the queued claims together")
                .isEqualTo(postgres ? 1 : 0);
        // A value the server refuses fails the batch before anything is written: each claim is
        // sent again alone, and only the refused one fails.
        scenario(db, "v", postgres ? Variant.REFUSED_VALUE : Variant.PLAIN);
        if (postgres) {
            assertThat(scenario(db, "l", Variant.LOST_REPLY)).as("the batch ran before its reply was lost")
                    .isEqualTo(1);
        }
    }

    /**
     * 32 callers of 8 keys at once through the runtime, each key by four of them: the body runs
     * once per key, and every caller is answered with its key's one result or "in progress".
     */
    @OnBothDatabases
    void manyCallersOfFewKeysRunEachBodyOnce(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        runtime.call(RACED, "warm-up", Map.of(), String.class, () -> "schema is ready now");
        Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();
        CyclicBarrier start = new CyclicBarrier(32);
        try (QueuedCallers callers = new QueuedCallers(32)) {
            for (int i = 0; i < 32; i++) {
                String key = "k" + (i % 8);
                callers.send(() -> {
                    try {
                        start.await(30, TimeUnit.SECONDS);
                        return runtime.call(RACED, key, Map.of("amount", 5), String.class, () -> {
                            executions.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                            return "done " + key;
                        });
                    } catch (OperationInProgressException e) {
                        return "in progress";
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
            List<Object> answers = callers.outcomes();
            for (int i = 0; i < 32; i++) {
                assertThat(answers.get(i)).as("caller " + i).isIn("done k" + (i % 8), "in progress");
            }
        }
        assertThat(executions).hasSize(8).allSatisfy((key, count) -> assertThat(count).as(key).hasValue(1));
        assertThat(db.queryLong("SELECT count(*) FROM tool_operations WHERE tool = ? AND operation_key LIKE ?",
                TOOL, "k%")).isEqualTo(8);
    }

    /**
     * Through the runtime: four claims sent together whose reply is lost after the batch
     * committed are each caller's "may have been recorded" failure, no body runs, and the runtime
     * releases each claim once the store answers, so that every key runs afresh.
     */
    @OnBothDatabases
    void claimsOfABatchWhoseReplyWasLostAreReleasedAndRunAfresh(TestDatabase db) throws Exception {
        // H2 sends each claim alone: no batch runs, so no reply is lost, and each body runs once.
        boolean postgres = db.kind() == Database.POSTGRESQL;
        StatementHookDataSource hooked = new StatementHookDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", hooked).build());
        ToolPolicy never = Policies.downstreamKey("lost_claim", Retry.NEVER).lease(Duration.ofMinutes(5)).build();
        runtime.call(never, "warm-up", Map.of(), String.class, () -> "schema is ready now");
        AtomicInteger runs = new AtomicInteger();
        try (QueuedCallers callers = new QueuedCallers(4)) {
            hooked.afterStatement(CLAIM, () -> {
                for (int i = 1; i <= 4; i++) {
                    String key = "lost" + i;
                    callers.send(() -> runtime.call(never, key, Map.of(), String.class,
                            () -> "ran " + runs.incrementAndGet()));
                }
                callers.awaitQueued("the other claims to wait behind the first");
                hooked.afterStatement(BATCH, () -> {
                    throw ClaimBatchesTest.<RuntimeException>sneaky(new SQLException("connection lost", "08006"));
                });
            });
            // On H2 the others, sent alone, may run their bodies before this one.
            assertThat(runtime.call(never, "lost0", Map.of(), String.class, () -> "ran " + runs.incrementAndGet()))
                    .isIn(postgres ? List.of("ran 1") : List.of("ran 1", "ran 2", "ran 3", "ran 4", "ran 5"));
            for (Object outcome : callers.outcomes()) {
                if (!postgres) {
                    assertThat(outcome).as("a claim sent alone on H2").isInstanceOf(String.class);
                    continue;
                }
                assertThat(outcome).isInstanceOf(StoreUnavailableException.class);
                assertThat(((Exception) outcome).getMessage()).contains("may have been recorded")
                        .contains("the body did not run");
            }
        }
        if (!postgres) {
            assertThat(runs).as("each claim sent alone ran its body once").hasValue(5);
            return;
        }
        assertThat(runs).as("no body of the lost batch ran").hasValue(1);
        for (int i = 1; i <= 4; i++) {
            String key = "lost" + i;
            TestDatabase.await(() -> "failed_safe".equals(db.status(key)), Duration.ofSeconds(30),
                    "the lost claim of " + key + " released");
            assertThat(runtime.call(never, key, Map.of(), String.class, () -> "ran again")).isEqualTo("ran again");
        }
    }

    private static String key(String p, int n) {
        return switch (n) {
            case 5 -> p + 1;
            case 6 -> p + "old";
            default -> p + n;
        };
    }

    private static ClaimRequest request(String p, int n, boolean refused) {
        // PostgreSQL's text takes no NUL character: the server refuses follower 7's payload.
        String payload = n == 7 && refused ? "{\"nul\":\"\u0000\"}" : "{}";
        return new ClaimRequest("a-" + n, key(p, n), TOOL, "h" + n, payload, Duration.ofMinutes(10 + n),
                Duration.ofDays(1), true);
    }

    /** Runs the scenario with keys starting with {@code p}; returns how many batch statements ran. */
    private static int scenario(TestDatabase db, String p, Variant variant) throws Exception {
        StatementHookDataSource hooked = new StatementHookDataSource(db);
        JdbcOperationStore store = new JdbcOperationStore("default", hooked, Dialect.detect(db.url()),
                SchemaMode.CREATE, null);
        try (QueuedCallers followers = new QueuedCallers(FOLLOWERS)) {
            assertThat(store.claim(new ClaimRequest("old", p + "old", TOOL, "h-old", "{}", Duration.ofHours(1),
                    Duration.ofDays(1), true))).isInstanceOf(ClaimResult.Inserted.class);
            AtomicInteger batches = new AtomicInteger();
            // While the first claim is in flight (its statement has run, its call not yet
            // returned), the others are sent and queue behind it.
            hooked.afterStatement(CLAIM, () -> {
                for (int i = 1; i <= FOLLOWERS; i++) {
                    ClaimRequest r = request(p, i, variant == Variant.REFUSED_VALUE);
                    followers.send(() -> store.claim(r));
                }
                followers.awaitQueued("the other claims to wait behind the first");
                hooked.afterStatement(BATCH, () -> {
                    batches.incrementAndGet();
                    if (variant == Variant.LOST_REPLY) {
                        // The batch ran and committed; its reply is lost on the way back.
                        throw ClaimBatchesTest.<RuntimeException>sneaky(new SQLException("connection lost", "08006"));
                    }
                });
            });

            assertThat(store.claim(request(p, 0, false))).isInstanceOf(ClaimResult.Inserted.class);
            List<Object> outcomes = new ArrayList<>();
            outcomes.add(null);
            outcomes.addAll(followers.outcomes());
            if (variant == Variant.LOST_REPLY) {
                // Followers 1 and 5 claim one key: whichever of them queued first went into the
                // batch and lost its reply; the other was sent alone, by its own thread.
                int batched = outcomes.get(1) instanceof StoreUnavailableException ? 1 : 5;
                int alone = batched == 1 ? 5 : 1;
                for (int n : new int[] {batched, 2, 3, 4, 6, 7}) {
                    assertThat(outcomes.get(n)).as("follower " + n).isInstanceOf(StoreUnavailableException.class);
                    assertThat(ClaimResult.mayHaveBeenRecorded((StoreUnavailableException) outcomes.get(n)))
                            .as("follower " + n + ": may have been recorded").isTrue();
                }
                for (int n : new int[] {1, 2, 3, 4, 7}) {
                    assertThat(db.status(key(p, n))).as("recorded before the reply was lost").isEqualTo("in_progress");
                }
                assertThat(outcomes.get(alone)).as("the same key again: its own single claim")
                        .isInstanceOf(ClaimResult.class);
                return batches.get();
            }
            boolean refused = variant == Variant.REFUSED_VALUE;
            for (int n : new int[] {2, 3, 4, 7}) {
                if (n == 7 && refused) {
                    assertThat(outcomes.get(n)).as("the refused value").isInstanceOf(RuntimeException.class);
                    assertThat(db.status(key(p, n))).as("nothing written for it").isNull();
                    continue;
                }
                assertFresh(db, p, n, outcomes.get(n));
            }
            // The same key twice: one fresh claim, and the other sees its row.
            int winner = outcomes.get(1) instanceof ClaimResult.Inserted ? 1 : 5;
            int loser = winner == 1 ? 5 : 1;
            assertFresh(db, p, winner, outcomes.get(winner));
            assertThat(outcomes.get(loser)).as("the same key's second claim").isInstanceOf(ClaimResult.Existing.class);
            assertThat(((ClaimResult.Existing) outcomes.get(loser)).operation().attemptId()).isEqualTo("a-" + winner);
            StoredOperation old = ((ClaimResult.Existing) outcomes.get(6)).operation();
            assertThat(old.payloadHash().strip()).as("the existing row, as it was").isEqualTo("h-old");
            assertThat(old.attemptId()).isEqualTo("old");
            assertThat(db.queryLong("SELECT count(*) FROM tool_operations WHERE operation_key LIKE ?", p + "%"))
                    .as("one row per key").isEqualTo(refused ? 6 : 7);
            if (db.kind() == Database.POSTGRESQL) {
                assertThat(db.queryLong("SELECT count(*) FROM tool_operations_open WHERE operation_key LIKE ?",
                        p + "%")).as("an open row per claimed key").isEqualTo(refused ? 6 : 7);
            }
            return batches.get();
        } finally {
            store.close();
        }
    }

    /** Follower {@code n}'s fresh claim: its own row, payload hash, attempt and lease from the database's clock. */
    private static void assertFresh(TestDatabase db, String p, int n, Object outcome) throws SQLException {
        assertThat(outcome).as("follower " + n).isInstanceOf(ClaimResult.Inserted.class);
        ClaimResult.Inserted inserted = (ClaimResult.Inserted) outcome;
        assertThat(inserted.leaseToken()).isEqualTo(1);
        assertThat(inserted.attempts()).isEqualTo(1);
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement("SELECT payload_hash, attempt_id,"
                + " created_at, lease_until FROM tool_operations WHERE tool = ? AND operation_key = ?")) {
            ps.setString(1, TOOL);
            ps.setString(2, key(p, n));
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1).strip()).as("payload hash of " + n).isEqualTo("h" + n);
                assertThat(rs.getString(2)).as("attempt of " + n).isEqualTo("a-" + n);
                Instant created = rs.getObject(3, OffsetDateTime.class).toInstant();
                Instant leaseUntil = rs.getObject(4, OffsetDateTime.class).toInstant();
                assertThat(inserted.leaseUntil()).as("the lease the caller got is the row's").isEqualTo(leaseUntil);
                assertThat(leaseUntil).as("its own lease, from the database's clock")
                        .isEqualTo(created.plus(Duration.ofMinutes(10 + n)));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }
}
