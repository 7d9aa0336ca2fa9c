package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.OperationCount;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.PendingApproval;
import io.idempotent.runtime.SchemaMode;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * The JDBC operation store: the one entry point to {@code tool_operations} and
 * {@code tool_operation_attempt_log}, which hands each call to the part that owns it. The
 * {@link OperationClaims} claim keys, the {@link OperationStateMachine} makes every change of an
 * existing row; the
 * {@link AttemptLog} writes the attempt log and its answers and reads it a page at a time; the
 * {@link OperatorQueries} answer an operator and purge; the {@link StoreSchema} prepares and
 * checks the schema before the first statement. They share one {@link StoreDatabase}
 * (connections, one write, a transaction, failures in the store's words). What differs between
 * databases stays in the {@link Dialect}. All times come from the database.
 */
public final class JdbcOperationStore implements OperationStore {

    private final String name;
    private final Dialect dialect;
    private final AutoCloseable closer;
    private final StoreDatabase db;
    private final StoreFailures failures;
    private final OperationClaims claims;
    private final OperationStateMachine operations;
    /** Replaced once, before first use, when the renewals get connections of their own. */
    private volatile LeaseRenewals renewals;
    private volatile AutoCloseable leaseCloser;
    private final AttemptLog attemptLog;
    private final UnnamedStatements unnamed = new UnnamedStatements();
    private final OperatorQueries queries;
    private final ApprovalQueue approvals;
    private final OutboxRows outbox;
    private final StoreTransactions transactions;
    /** Completed records answered from memory (issue 39). */
    private final ReplayCache replays;
    /** PostgreSQL's completions sent together while one is in flight (issue 39); null on H2. */
    private final CompletionBatches completions;

    /**
     * @param name the store's name, for messages
     * @param closer closes the data source when the store closes (null when the caller owns it)
     */
    public JdbcOperationStore(String name, DataSource dataSource, Dialect dialect, SchemaMode schemaMode,
            AutoCloseable closer) {
        this(name, null, dataSource, dataSource, dialect, schemaMode, closer);
    }

    /**
     * @param name the store's name, for messages
     * @param location where the store is, for messages: its URL without credentials (null: not known)
     * @param dataSource the connections of every statement (the pool)
     * @param firstConnection the connection that the schema's preparation opens first, beside the
     *     pool's: a pool retries a refused connection until its timeout and then says only that it
     *     timed out, so a wrong password would be reported seconds late, and as "retry later"
     * @param closer closes the data source when the store closes (null when the caller owns it)
     */
    public JdbcOperationStore(String name, String location, DataSource dataSource, DataSource firstConnection,
            Dialect dialect, SchemaMode schemaMode, AutoCloseable closer) {
        this(name, location, dataSource, firstConnection, dialect, schemaMode, closer, AnswerLogLimits.DEFAULT);
    }

    /**
     * As {@link #JdbcOperationStore(String, String, DataSource, DataSource, Dialect, SchemaMode,
     * AutoCloseable)}, with the bound of the answers held in memory and the wait at close.
     */
    public JdbcOperationStore(String name, String location, DataSource dataSource, DataSource firstConnection,
            Dialect dialect, SchemaMode schemaMode, AutoCloseable closer, AnswerLogLimits answerLimits) {
        this(name, location, dataSource, firstConnection, dialect, schemaMode, closer, answerLimits,
                AnswerLog.Pacing.DEFAULT);
    }

    /** As the public constructor, with the attempt-log writer's pacing while the store fails (for tests). */
    JdbcOperationStore(String name, String location, DataSource dataSource, DataSource firstConnection,
            Dialect dialect, SchemaMode schemaMode, AutoCloseable closer, AnswerLogLimits answerLimits,
            AnswerLog.Pacing pacing) {
        this.name = name;
        this.dialect = dialect;
        this.closer = closer;
        StoreFailures failures = new StoreFailures("store \"" + name + "\" (" + dialect.name()
                + (location == null ? "" : ", " + location) + ")");
        StoreSchema schema = new StoreSchema(dataSource, firstConnection, dialect, schemaMode, failures, unnamed);
        this.db = new StoreDatabase(dataSource, dialect, schema, failures, unnamed);
        this.failures = failures;
        this.attemptLog = new AttemptLog(name, db, answerLimits, pacing);
        this.replays = new ReplayCache(answerLimits.replayCache());
        this.claims = new OperationClaims(db);
        this.operations = new OperationStateMachine(db);
        OperationStateMachine machine = operations;
        this.completions = dialect.dataModifyingWith() ? new CompletionBatches(db, c -> machine.complete(c.tool(),
                c.key(), c.leaseToken(), c.attemptId(), c.resultJson(), new AttemptEnd(c.downstreamId(), c.detail())))
                : null;
        this.renewals = new LeaseRenewals(db, dataSource);
        this.queries = new OperatorQueries(db);
        this.approvals = new ApprovalQueue(db);
        this.outbox = new OutboxRows(db);
        this.transactions = new StoreTransactions(db, dataSource);
    }

    @Override
    public Optional<StoreTransactions> transactions() {
        return Optional.of(transactions);
    }

    /**
     * Names the data source the application gave this store (beneath any Spring transaction-aware
     * proxy), whose Spring transactions a transactional tool call joins; returns this store.
     */
    public JdbcOperationStore onApplicationDataSource(DataSource application) {
        transactions.application(application);
        return this;
    }

    /**
     * Lets the store switch its connections to unnamed statements ({@code prepareThreshold=0})
     * when it finds a transaction pooler at start: for a store on connections it opened from a
     * URL that does not set {@code prepareThreshold}. Without it, such a pooler is refused unless
     * the connections already use unnamed statements.
     */
    public void chooseStatementsBehindAPooler() {
        unnamed.allowChoosing();
    }

    /**
     * Gives the lease renewals connections of their own ({@code connections}, closed with the
     * store by {@code closer}), so that no claim, completion or operator query holding every
     * connection of the store's pool can delay them. Called once, before the store's first use;
     * without it, renewals share the store's data source (the application's, for a store on it).
     */
    public JdbcOperationStore leaseConnections(DataSource connections, AutoCloseable closer) {
        this.renewals = new LeaseRenewals(db, connections);
        this.leaseCloser = closer;
        return this;
    }

    /**
     * Explains every failure of this store with {@code explanation} before it is classified (an
     * embedded H2 file's errors by who holds the file); returns this store.
     */
    public JdbcOperationStore explainingFailuresWith(UnaryOperator<SQLException> explanation) {
        failures.explainWith(explanation);
        return this;
    }

    /** The store as messages name it ("store \"default\" (h2, URL)"). */
    public String described() {
        return failures.described();
    }

    /**
     * The exception of a store operation that did not answer in time: {@code e} says why,
     * {@code claim} whether it was a claim, {@code sent} whether a statement may have reached the
     * database (it then may have recorded the claim).
     */
    public RuntimeException timedOut(String what, SQLException e, boolean claim, boolean sent) {
        return failures.failure(what, e, !claim ? ClaimFate.NOT_A_CLAIM : sent ? ClaimFate.MAY_HAVE_CLAIMED
                : ClaimFate.NOTHING_CLAIMED);
    }

    /** The dialect in use. */
    public Dialect dialect() {
        return dialect;
    }

    @Override
    public void ensureSchema() {
        db.ensureSchema();
    }

    @Override
    public ClaimResult claim(ClaimRequest request) {
        if (db.inCallTransaction()) {
            return claims.claim(request);
        }
        StoredOperation completed = replays.lookup(request.tool(), request.key());
        if (completed != null) {
            return new ClaimResult.Existing(completed);
        }
        long sent = System.nanoTime();
        ClaimResult result = claims.claim(request);
        replays.claimed(request, result, sent);
        return result;
    }

    @Override
    public Optional<StoredOperation> find(String tool, String key) {
        return queries.find(tool, key);
    }

    @Override
    public Transition takeOver(Takeover t) {
        return operations.takeOver(t);
    }

    @Override
    public Transition expireLease(String tool, String key, long expectedToken, boolean safe, String errorJson) {
        return operations.expireLease(tool, key, expectedToken, safe, errorJson);
    }

    @Override
    public Transition markEffectStarting(String tool, String key, long leaseToken, String attemptId,
            String downstreamId, Duration lease) {
        Transition t = operations.markEffectStarting(tool, key, leaseToken, attemptId, downstreamId, lease);
        replays.effectStarting(tool, key, attemptId, downstreamId, t);
        return t;
    }

    @Override
    public Transition heartbeat(String tool, String key, long leaseToken, String attemptId, Duration lease) {
        return operations.heartbeat(tool, key, leaseToken, attemptId, lease);
    }

    @Override
    public Set<LeaseRenewal> renewLeases(List<LeaseRenewal> leases, Duration lease) {
        return renewals.renew(leases, lease);
    }

    @Override
    public Transition complete(String tool, String key, long leaseToken, String attemptId, String resultJson,
            AttemptEnd end) {
        if (db.inCallTransaction()) {
            // The call's transaction may still roll back: its own connection, nothing remembered.
            return operations.complete(tool, key, leaseToken, attemptId, resultJson, end);
        }
        long sent = System.nanoTime();
        // A completion that writes outbox rows commits them in its own transaction, never in a batch.
        Transition t = completions == null || !end.messages().isEmpty()
                ? operations.complete(tool, key, leaseToken, attemptId, resultJson, end)
                : completions.complete(new CompletionBatches.Completion(tool, key, leaseToken, attemptId, resultJson,
                        end.downstreamId(), end.detail()));
        replays.ended(tool, key, attemptId, resultJson, t, sent);
        return t;
    }

    @Override
    public Transition fail(String tool, String key, long leaseToken, String attemptId, boolean safe,
            String errorJson, AttemptEnd end) {
        Transition t = operations.fail(tool, key, leaseToken, attemptId, safe, errorJson, end);
        replays.ended(tool, key, attemptId, null, t, 0);
        return t;
    }

    @Override
    public Transition releaseClaim(String tool, String key, String attemptId, String releasedBy) {
        Transition t = operations.releaseClaim(tool, key, attemptId, releasedBy);
        replays.ended(tool, key, attemptId, null, t, 0);
        return t;
    }

    @Override
    public Transition recreate(LostRecord record) {
        return operations.recreate(record);
    }

    @Override
    public Transition settleApplied(String tool, String key, long expectedToken, String resultJson) {
        return operations.settleApplied(tool, key, expectedToken, resultJson);
    }

    @Override
    public Transition settleNotApplied(String tool, String key, long expectedToken, String releasedBy) {
        return operations.settleNotApplied(tool, key, expectedToken, releasedBy);
    }

    @Override
    public void logAttempt(AttemptRow r) {
        attemptLog.logAttempt(r);
    }

    @Override
    public void flushAttemptLog() {
        attemptLog.flush();
    }

    @Override
    public void endAttempt(String tool, String key, String attemptId, AttemptOutcome outcome, String downstreamId,
            String detail) {
        attemptLog.endAttempt(tool, key, attemptId, outcome, downstreamId, detail);
    }

    @Override
    public AttemptPage attempts(String tool, String key, Set<AttemptOutcome> outcomes, int offset, int limit) {
        return attemptLog.attempts(tool, key, outcomes, offset, limit);
    }

    @Override
    public List<StoredOperation> awaitingReconciliation(String tool, Duration olderThan, int limit) {
        return queries.awaitingReconciliation(tool, olderThan, limit);
    }

    @Override
    public ClaimResult requestApproval(ClaimRequest request, ApprovalRequest approval) {
        return approvals.request(request, approval);
    }

    @Override
    public Transition decideApproval(ApprovalDecision decision) {
        return approvals.decide(decision);
    }

    @Override
    public Transition expireApproval(String tool, String key, long expectedToken, String attemptId) {
        return approvals.expire(tool, key, expectedToken, attemptId);
    }

    @Override
    public List<String> expireLapsedGrants(String foundBy) {
        return approvals.expireLapsed(foundBy);
    }

    @Override
    public List<PendingApproval> pendingApprovals(String tool, int offset, int limit) {
        return approvals.pending(tool, offset, limit);
    }

    @Override
    public Map<String, Long> countPendingApprovals() {
        return approvals.countPending();
    }

    @Override
    public OutboxRows outbox() {
        return outbox;
    }

    @Override
    public List<StoredOperation> inProgress(int limit) {
        return queries.inProgress(limit);
    }

    @Override
    public List<OperationCount> countByToolAndStatus(OperationStatus onlyStatus) {
        return queries.countByToolAndStatus(onlyStatus);
    }

    @Override
    public int countExpired() {
        return queries.countExpired();
    }

    @Override
    public int purgeExpired() {
        replays.clear();
        return queries.purgeExpired();
    }

    @Override
    public void onRefusedAnswer(java.util.function.Consumer<String> perTool) {
        attemptLog.onRefusedAnswer(perTool);
    }

    /** The answers held in memory now (tests). */
    int queuedAnswers() {
        return attemptLog.queuedAnswers();
    }

    @Override
    public Duration closeTimeout() {
        return attemptLog.closeTimeout();
    }

    /** Writes the queued answers (bounded by the close timeout), then closes the pool. */
    @Override
    public void close() {
        attemptLog.close();
        try {
            if (leaseCloser != null) {
                leaseCloser.close();
            }
            if (closer != null) {
                closer.close();
            }
        } catch (Exception e) {
            throw new IllegalStateException("closing store " + name, e);
        }
    }

    /**
     * The exception for a failure of the store {@code described} ("store \"default\" (h2, URL)")
     * while it tried {@code what} ("connect to"): never the database's message, which may quote
     * SQL or a refused value; see {@link StoreFailures}. Not a claim's: a claim's failure is the
     * store's own ({@link ClaimFate}).
     */
    public static RuntimeException failure(String described, String what, SQLException e) {
        return StoreFailures.failure(described, what, e, ClaimFate.NOT_A_CLAIM);
    }
}
