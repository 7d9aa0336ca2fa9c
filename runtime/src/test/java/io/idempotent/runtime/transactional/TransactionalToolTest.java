package io.idempotent.runtime.transactional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.OperationInProgressException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.Database;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.TestDatabase;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A transactional tool: its claim, its body's writes (on {@code OperationContext.connection()})
 * and its completion commit in one transaction. The user's table is counted, not the body's
 * runs alone: a write rolled back with its claim leaves nothing, and the retry writes once.
 */
class TransactionalToolTest {

    static final ToolPolicy LEDGER = ToolPolicy.builder("ledger_entry").keyTemplate("ledger:{id}")
            .downstreamKey(false).retry(Retry.SAFE).transactional(true).build();
    static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842", "amountCents", 1250);

    static String ledgerTable(TestDatabase db) {
        String table = "ledger_" + Long.toHexString(System.nanoTime());
        db.update("CREATE TABLE " + table + " (entry_key VARCHAR(100), amount_cents BIGINT)");
        return table;
    }

    /** The body's write, on the call's connection. */
    static void addEntry(String table, long amountCents) {
        OperationContext op = OperationContext.current();
        try (PreparedStatement ps = op.connection().prepareStatement("INSERT INTO " + table
                + " (entry_key, amount_cents) VALUES (?, ?)")) {
            ps.setString(1, op.key());
            ps.setLong(2, amountCents);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @OnBothDatabases
    void theWritesAndTheCompletionCommitTogetherAndARepeatReplays(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        String table = ledgerTable(db);
        AtomicInteger runs = new AtomicInteger();
        String key = "ledger:1";

        String first = runtime.call(LEDGER, key, PAYLOAD, String.class, () -> {
            runs.incrementAndGet();
            addEntry(table, 1250);
            return "entry " + runs.get();
        });
        String again = runtime.call(LEDGER, key, PAYLOAD, String.class, () -> {
            runs.incrementAndGet();
            addEntry(table, 1250);
            return "entry " + runs.get();
        });

        assertThat(again).isEqualTo(first).isEqualTo("entry 1");
        assertThat(runs).hasValue(1);
        assertThat(db.queryLong("SELECT count(*) FROM " + table)).isEqualTo(1);
        assertThat(db.status(key)).isEqualTo("completed");
    }

    @OnBothDatabases
    void aBodyThatThrowsRollsItsWritesBackIsFailedSafeAndTheRetryWritesOnce(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        String table = ledgerTable(db);
        String key = "ledger:2";

        assertThatThrownBy(() -> runtime.call(LEDGER, key, PAYLOAD, String.class, () -> {
            addEntry(table, 1250);
            throw new IllegalStateException("the body failed after its write");
        })).isInstanceOf(IllegalStateException.class).hasMessage("the body failed after its write");

        assertThat(db.queryLong("SELECT count(*) FROM " + table)).as("rolled back with the failure").isZero();
        assertThat(db.status(key)).isEqualTo("failed_safe");

        String retried = runtime.call(LEDGER, key, PAYLOAD, String.class, () -> {
            addEntry(table, 1250);
            return "written";
        });
        assertThat(retried).isEqualTo("written");
        assertThat(db.queryLong("SELECT count(*) FROM " + table)).isEqualTo(1);
        assertThat(db.status(key)).isEqualTo("completed");
        assertThat(db.queryLong("SELECT attempts FROM tool_operations WHERE operation_key = ?", key)).isEqualTo(2);
    }

    @OnBothDatabases
    void theBodyMayNotEndTheCallsTransaction(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        String table = ledgerTable(db);
        String key = "ledger:3";

        assertThatThrownBy(() -> runtime.call(LEDGER, key, PAYLOAD, String.class, () -> {
            addEntry(table, 1250);
            OperationContext.current().connection().commit();
            return "never";
        })).isInstanceOf(SQLException.class).hasMessageContaining("belongs to the tool call");

        assertThat(db.queryLong("SELECT count(*) FROM " + table)).isZero();
        assertThat(db.status(key)).isEqualTo("failed_safe");
    }

    /** A getter that throws: the result cannot be stored. */
    public record Unstorable(String id) {
        public String getBroken() {
            throw new IllegalStateException("no");
        }
    }

    @OnBothDatabases
    void aResultThatCannotBeStoredRollsTheWholeCallBack(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        String table = ledgerTable(db);
        String key = "ledger:7";

        assertThatThrownBy(() -> runtime.call(LEDGER, key, PAYLOAD, Unstorable.class, () -> {
            addEntry(table, 1250);
            return new Unstorable("x");
        })).isInstanceOf(io.idempotent.runtime.ResultNotReplayableException.class)
                .hasMessageContaining("the call's transaction was rolled back");

        assertThat(db.queryLong("SELECT count(*) FROM " + table)).isZero();
        assertThat(db.status(key)).isNull();
    }

    @OnBothDatabases
    void aToolThatIsNotTransactionalHasNoConnection(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy plain = ToolPolicy.builder("plain").keyTemplate("plain:{id}").downstreamKey(true)
                .downstreamRetention(Duration.ofDays(1)).retry(Retry.SAFE).build();

        assertThatThrownBy(() -> runtime.call(plain, "plain:1", PAYLOAD, String.class,
                () -> OperationContext.current().connection().toString()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("tool plain is not transactional");
    }

    /**
     * A duplicate that comes while the first call's transaction is open waits on the key's row
     * lock (the first call's uncommitted claim), and once that commits it replays the stored
     * result: the body ran once, one row is written. (On H2 the wait is bounded by its lock
     * timeout, set long here; see the next test.)
     */
    @OnBothDatabases
    void aConcurrentDuplicateWaitsForTheFirstCallsCommitAndThenReplays(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", db.kind() == Database.H2
                ? db.url() + ";LOCK_TIMEOUT=60000" : db.url(), db.user(), db.password()).build());
        String table = ledgerTable(db);
        String key = "ledger:4";
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        Caller first = Caller.start(runtime, key, table, runs, release, "first");
        first.awaitWritten();

        Caller duplicate = Caller.start(runtime, key, table, runs, null, "duplicate");
        TestDatabase.await(() -> waitsOnALock(db, duplicate.thread), Duration.ofSeconds(30),
                "the duplicate's claim waiting on the first call's row lock");
        assertThat(duplicate.result).isNotDone();
        release.countDown();

        assertThat(first.result.get(30, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(duplicate.result.get(30, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(runs).hasValue(1);
        assertThat(db.queryLong("SELECT count(*) FROM " + table)).isEqualTo(1);
        db.flushAttemptLogs();
        assertThat(db.attemptOutcomes(key)).contains("COMPLETED", "REPLAYED");
    }

    /**
     * A database waits for a row lock only as long as its lock timeout (H2: 2 s unless configured;
     * PostgreSQL: without limit unless {@code lock_timeout} is set): a duplicate that outwaits it is
     * answered "in progress" (retryable), nothing is claimed twice, and its repeat after the first
     * call committed replays.
     */
    @OnBothDatabases
    void aDuplicateThatOutwaitsTheLockTimeoutIsAnsweredInProgress(TestDatabase db) throws Exception {
        String url = db.kind() == Database.H2 ? db.url() + ";LOCK_TIMEOUT=300"
                : db.url().replace("options=", "options=-c%20lock_timeout%3D300%20");
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", url, db.user(),
                db.password()).build());
        String table = ledgerTable(db);
        String key = "ledger:5";
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        Caller first = Caller.start(runtime, key, table, runs, release, "first");
        first.awaitWritten();

        Caller duplicate = Caller.start(runtime, key, table, runs, null, "duplicate");
        assertThat(duplicate.result).failsWithin(Duration.ofSeconds(30)).withThrowableOfType(
                java.util.concurrent.ExecutionException.class).havingCause()
                .isInstanceOf(OperationInProgressException.class)
                .withMessageContaining("another call's transaction holds the key");
        release.countDown();
        assertThat(first.result.get(30, TimeUnit.SECONDS)).isEqualTo("first");

        assertThat(Caller.start(runtime, key, table, runs, null, "repeat").result.get(30, TimeUnit.SECONDS))
                .isEqualTo("first");
        assertThat(runs).hasValue(1);
        assertThat(db.queryLong("SELECT count(*) FROM " + table)).isEqualTo(1);
    }

    @OnBothDatabases
    void anAsynchronousCallOfATransactionalToolIsRefusedBeforeTheClaim(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<String> call = io.idempotent.runtime.internal.RuntimeAccess.engine(runtime).async().call(
                LEDGER, "ledger:6", PAYLOAD, String.class, null, () -> {
                    runs.incrementAndGet();
                    return CompletableFuture.completedFuture("never");
                });

        assertThat(call).failsWithin(Duration.ofSeconds(30)).withThrowableOfType(
                java.util.concurrent.ExecutionException.class).havingCause()
                .isInstanceOf(io.idempotent.runtime.StoreConfigurationException.class)
                .withMessageContaining("transactional = true needs a method that returns its result directly");
        assertThat(runs).hasValue(0);
        assertThat(db.operationRows()).as("nothing was claimed").isZero();
    }

    /** Whether {@code caller} waits for a lock another session holds. */
    static boolean waitsOnALock(TestDatabase db, Thread caller) {
        if (db.kind() == Database.POSTGRESQL) {
            return db.queryLong("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'") > 0;
        }
        // H2 shows no blocker of a unique-key wait: its statement is retried in the caller's thread until the lock is free.
        for (StackTraceElement frame : caller.getStackTrace()) {
            if (frame.getClassName().startsWith("org.h2.command.")) {
                return true;
            }
        }
        return false;
    }

    /** A call of the ledger tool on a thread of its own, whose body waits for {@code release} after its write. */
    static final class Caller {
        final CompletableFuture<String> result = new CompletableFuture<>();
        final CountDownLatch written = new CountDownLatch(1);
        Thread thread;

        static Caller start(IdempotentRuntime runtime, String key, String table, AtomicInteger runs,
                CountDownLatch release, String answer) {
            Caller caller = new Caller();
            caller.thread = new Thread(() -> {
                try {
                    caller.result.complete(runtime.call(LEDGER, key, PAYLOAD, String.class, () -> {
                        runs.incrementAndGet();
                        addEntry(table, 1250);
                        caller.written.countDown();
                        if (release != null) {
                            awaitUninterruptibly(release);
                        }
                        return answer;
                    }));
                } catch (Throwable t) {
                    caller.result.completeExceptionally(t);
                }
            }, "ledger-" + answer);
            caller.thread.start();
            return caller;
        }

        void awaitWritten() throws InterruptedException {
            assertThat(written.await(30, TimeUnit.SECONDS)).as("the body wrote").isTrue();
        }
    }

    static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the body");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
