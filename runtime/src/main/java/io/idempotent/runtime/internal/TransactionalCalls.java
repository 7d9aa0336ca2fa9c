package io.idempotent.runtime.internal;

import io.idempotent.policy.internal.TransactionalRules;
import io.idempotent.runtime.OperationInProgressException;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.store.StoreTransactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * How a call of a transactional tool ({@code transactional = true}) begins: the call's
 * transaction is opened (or the caller's Spring transaction on the store's data source joined)
 * and bound to the thread, and then the ordinary protocol decides the call inside it, with the
 * state machine's own statements. A store that cannot run such a call, or a caller whose Spring
 * transaction is on another data source (the tool's writes would commit apart from it), is
 * refused before anything is claimed.
 */
final class TransactionalCalls {

    private TransactionalCalls() {
    }

    /**
     * Decides a call of a transactional tool with {@code decide} inside the call's transaction;
     * the execution it returns ends the transaction.
     */
    static Invocation begin(StoreRegistry stores, ToolPolicy policy, String key, Supplier<Invocation> decide) {
        String tool = policy.name();
        StoreTransactions store = stores.get(policy.store(), tool).transactions().orElseThrow(
                () -> incapableStore(tool, key, policy.store(), "nothing was claimed and the body did not run"));
        store.ensureSchema();
        TransactionalCall call = open(store, tool, key);
        Invocation invocation;
        try {
            invocation = decide.get();
        } catch (StoreUnavailableException e) {
            call.endedWithoutBody(e);
            if (lockWaitRanOut(e)) {
                OperationInProgressException busy = new OperationInProgressException(tool, key, "another call's"
                        + " transaction holds the key (a transactional tool's claim commits with its body's writes),"
                        + " and the database's lock wait ran out before it ended; the body did not run");
                busy.addSuppressed(e);
                throw busy;
            }
            throw e;
        } catch (RuntimeException | Error refused) {
            call.endedWithoutBody(refused);
            throw refused;
        }
        if (!(invocation instanceof Invocation.Execution execution)) {
            call.endedWithoutBody(null);
            return invocation;
        }
        try {
            call.claimed();
        } catch (SQLException e) {
            RuntimeException failed = store.unavailable("mark the claim of a transactional tool in", e);
            call.undo(failed);
            execution.abandon();
            throw failed;
        }
        execution.inTransaction(call);
        return invocation;
    }

    private static TransactionalCall open(StoreTransactions store, String tool, String key) {
        DataSource application = store.application();
        try {
            if (SpringTransactions.PRESENT && SpringTransactions.transactionActive()) {
                Connection joined = SpringTransactions.joined(application);
                if (joined == null) {
                    throw new StoreConfigurationException(tool, key, "the tool is transactional and its caller runs"
                            + " in a Spring transaction, but not on the data source of the tool's store ("
                            + store.described() + "): the tool's writes would commit apart from the caller's; nothing"
                            + " was claimed and the body did not run", "Give the tool's store the DataSource of the"
                            + " caller's transaction manager (IdempotentRuntime.builder().store(name, dataSource)), or"
                            + " call the tool outside that transaction; see docs/transactional-tools.md", null);
                }
                return TransactionalCall.joined(store, joined, application);
            }
            return TransactionalCall.own(store);
        } catch (SQLException e) {
            throw store.unavailable("open the transaction of a transactional tool in", e);
        }
    }

    /**
     * The refusal of a transactional tool whose store cannot run its claim, body and completion in
     * one transaction: at the runtime's start ({@link ToolStores#requireTransactionsWhereDeclared})
     * or, for a tool the start did not see, at its call.
     */
    static StoreConfigurationException incapableStore(String tool, String key, String store, String consequence) {
        return new StoreConfigurationException(tool, key, "the tool is transactional, but store \"" + store + "\""
                + " cannot run its claim, body and completion in one transaction (an embedded store shared by"
                + " several JVMs, or not a JDBC store); " + consequence, "Put the tool on a store on the"
                + " application's database: IdempotentRuntime.builder().store(\"" + store + "\", dataSource), or"
                + " store." + store + ".url (PostgreSQL, or H2 without AUTO_SERVER); see docs/transactional-tools.md",
                null);
    }

    /**
     * Whether the claim waited for the key's row lock, which another call's open transaction held,
     * until the database gave up: H2's lock timeout (HYT00), PostgreSQL's {@code lock_timeout} (55P03).
     */
    private static boolean lockWaitRanOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && ("HYT00".equals(sql.getSQLState())
                    || "55P03".equals(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    /** Refuses a transactional tool called as an asynchronous one: its body would run outside the transaction. */
    static void refuseAsynchronous(ToolPolicy policy, String key) {
        if (policy.transactional()) {
            throw new StoreConfigurationException(policy.name(), key, TransactionalRules.Violation.ASYNC.description()
                    + "; nothing was claimed and the body did not run");
        }
    }
}
