package io.idempotent.runtime.transactional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.ValueRejectedException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.SimulatedWorkerDeath;
import io.idempotent.runtime.testing.FaultyDataSource;
import io.idempotent.runtime.testing.FaultyDataSource.Strike;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The two halves of issue 37 together: a transactional tool that also sends through the outbox
 * writes its own rows, its outbox rows and its completion in the call's one transaction. Nothing
 * of the three survives a death before the commit; all three survive the commit. And the outbox
 * declaration ({@code outbox = {...}}) is enforced: a send to another destination fails the body.
 */
class TransactionalOutboxTest {

    private static final String OUTBOX = "tool_operation_outbox";
    private static final ToolPolicy LEDGER = ToolPolicy.builder("ledger_notified").keyTemplate("ledger:{id}")
            .downstreamKey(false).retry(Retry.SAFE).transactional(true).outbox("customer-notifications").build();

    /** The body: a ledger row on the call's connection, then a notification through the outbox. */
    private static String bookAndNotify(String table, AtomicInteger runs) {
        runs.incrementAndGet();
        TransactionalToolTest.addEntry(table, 1250);
        OperationContext.current().send("customer-notifications", "{\"credit\":1250}");
        return "booked";
    }

    @OnBothDatabases
    void theLedgerRowTheOutboxRowAndTheCompletionCommitTogether(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        String table = TransactionalToolTest.ledgerTable(db);
        AtomicInteger runs = new AtomicInteger();

        runtime.call(LEDGER, "ledger:1", TransactionalToolTest.PAYLOAD, String.class, () -> bookAndNotify(table, runs));
        runtime.call(LEDGER, "ledger:1", TransactionalToolTest.PAYLOAD, String.class, () -> bookAndNotify(table, runs));

        assertThat(runs).hasValue(1);
        assertThat(db.status("ledger:1")).isEqualTo("completed");
        assertThat(db.queryLong("SELECT count(*) FROM " + table)).isEqualTo(1);
        assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX + " WHERE operation_key = 'ledger:1'")).isEqualTo(1);
    }

    @OnBothDatabases
    void aWorkerThatDiesAfterItsSendAndBeforeTheCommitLeavesNoRowAndTheRetryRunsOnce(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        String table = TransactionalToolTest.ledgerTable(db);
        AtomicInteger runs = new AtomicInteger();

        assertThatThrownBy(() -> runtime.call(LEDGER, "ledger:2", TransactionalToolTest.PAYLOAD, String.class, () -> {
            bookAndNotify(table, runs);
            throw new SimulatedWorkerDeath("after the ledger row and the send, before the commit");
        })).isInstanceOf(SimulatedWorkerDeath.class);

        assertThat(db.status("ledger:2")).as("the claim rolled back with the rest").isNull();
        assertThat(db.queryLong("SELECT count(*) FROM " + table)).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX)).isZero();

        runtime.call(LEDGER, "ledger:2", TransactionalToolTest.PAYLOAD, String.class, () -> bookAndNotify(table, runs));
        assertThat(runs).hasValue(2);
        assertThat(db.status("ledger:2")).isEqualTo("completed");
        assertThat(db.queryLong("SELECT count(*) FROM " + table)).isEqualTo(1);
        assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX)).isEqualTo(1);
    }

    @OnBothDatabases
    void aFailingOutboxInsertRollsTheLedgerRowAndTheClaimBack(TestDatabase db) {
        FaultyDataSource faulty = new FaultyDataSource(db);
        IdempotentRuntime runtime = db.track(IdempotentRuntime.builder().store("default", faulty).build());
        String table = TransactionalToolTest.ledgerTable(db);
        faulty.breakUpdates("INSERT INTO " + OUTBOX, 1_000, Strike.BEFORE_EXECUTING);

        assertThatThrownBy(() -> runtime.call(LEDGER, "ledger:3", TransactionalToolTest.PAYLOAD, String.class,
                () -> bookAndNotify(table, new AtomicInteger()))).isInstanceOf(RuntimeException.class);

        assertThat(faulty.injected()).isPositive();
        assertThat(db.status("ledger:3")).isNull();
        assertThat(db.queryLong("SELECT count(*) FROM " + table)).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX)).isZero();
    }

    @OnBothDatabases
    void aSendToADestinationTheToolDidNotDeclareFailsTheBodyAndSendsNothing(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        String table = TransactionalToolTest.ledgerTable(db);

        assertThatThrownBy(() -> runtime.call(LEDGER, "ledger:4", TransactionalToolTest.PAYLOAD, String.class, () -> {
            TransactionalToolTest.addEntry(table, 1250);
            OperationContext.current().send("billing-events", "{}");
            return "never";
        })).isInstanceOf(ValueRejectedException.class)
                .hasMessageContaining("\"billing-events\"")
                .hasMessageContaining("outbox = {...}")
                .hasMessageContaining("declared: customer-notifications");

        assertThat(db.queryLong("SELECT count(*) FROM " + table)).as("rolled back with the failed body").isZero();
        assertThat(db.queryLong("SELECT count(*) FROM " + OUTBOX)).isZero();
    }

    @Test
    void aPolicyBuiltInCodeIsHeldToTheDeclarationRules() {
        assertThatThrownBy(() -> ToolPolicy.builder("n").keyTemplate("n:{id}").downstreamKey(false)
                .retry(Retry.SAFE).transactional(true).outbox("mail", "mail", "").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outbox: the destination \"mail\" is declared twice")
                .hasMessageContaining("outbox: the outbox destination is empty");
    }
}
