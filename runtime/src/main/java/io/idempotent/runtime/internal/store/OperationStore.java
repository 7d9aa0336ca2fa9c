package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.OperationCount;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.PendingApproval;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The durable operation records. An operation is identified by its tool and its key together
 * (every method takes both). Every state change is one conditional statement that returns a
 * {@link Transition}: the row as the change left it (its new lease token), or
 * {@link Transition.LostRace} when the row is no longer as the caller observed it, or the
 * caller's lease token is no longer current, and nothing changed. A write of a running attempt
 * (its effect boundary, heartbeat, completion or failure) names the attempt by its lease token
 * and its attempt id: the token alone restarts at 1 when a lost record's key is claimed afresh
 * ({@link #recreate}), so only both together fence an older attempt out. Every method throws
 * {@link io.idempotent.runtime.StoreUnavailableException} when the database cannot be reached.
 */
public interface OperationStore {

    /** Creates the schema or checks that it exists, once; later calls return at once. */
    void ensureSchema();

    /** Inserts the operation if the key is new, atomically; otherwise returns the existing row. */
    ClaimResult claim(ClaimRequest request);

    /**
     * The claim of a tool that needs approval: inserts the operation as {@code awaiting_approval}
     * (no attempt runs; the attempt on the record is the request) with {@code approval} beside it,
     * if the key is new, atomically; otherwise returns the existing row.
     */
    ClaimResult requestApproval(ClaimRequest request, ApprovalRequest approval);

    /**
     * Records an operator's decision: {@code approved} (the grant valid for the request's
     * validity from now) or {@code denied}, with its attempt-log row, in one transaction; only
     * while the row is as the operator read it.
     */
    Transition decideApproval(ApprovalDecision decision);

    /**
     * Puts an {@code approved} operation whose grant lapsed unused back to {@code awaiting_approval},
     * with its {@code APPROVAL_EXPIRED} row under {@code attemptId}, in one transaction; only while
     * it is as read ({@code expectedToken}), so a lapse is recorded once.
     */
    Transition expireApproval(String tool, String key, long expectedToken, String attemptId);

    /**
     * Records every grant that lapsed unused as {@link #expireApproval} does, each once: the
     * approval queue's read and the purge call it, so a lapse is in the history even when no call
     * and no decision comes. {@code foundBy} ends each row's detail ("the approval queue's read").
     *
     * @return the tool of each lapse recorded, for the meters
     */
    List<String> expireLapsedGrants(String foundBy);

    /**
     * The operations awaiting approval, the oldest request first: never decided, or granted and
     * lapsed; of {@code tool} (null: every tool), skipping {@code offset}, at most {@code limit}.
     */
    List<PendingApproval> pendingApprovals(String tool, int offset, int limit);

    /** How many operations await approval, per tool. */
    Map<String, Long> countPendingApprovals();

    /** Reads {@code tool}'s operation {@code key} (with the database's verdict on lease expiry). */
    Optional<StoredOperation> find(String tool, String key);

    /** Takes over an existing operation for a new attempt; applied: this attempt owns the new lease token. */
    Transition takeOver(Takeover takeover);

    /**
     * Ends an operation whose lease expired (its worker is presumed dead): {@code failed_safe}
     * when its effect had provably not begun ({@code safe}), else {@code needs_reconciliation}.
     */
    Transition expireLease(String tool, String key, long expectedToken, boolean safe, String errorJson);

    /**
     * The effect boundary: only while attempt {@code attemptId} owns an unexpired lease under
     * {@code leaseToken}, which it renews to a full {@code lease}, so the effect starts with all of it.
     */
    Transition markEffectStarting(String tool, String key, long leaseToken, String attemptId, String downstreamId,
            Duration lease);

    /** Extends the lease; only while attempt {@code attemptId} owns an unexpired lease under {@code leaseToken}. */
    Transition heartbeat(String tool, String key, long leaseToken, String attemptId, Duration lease);

    /**
     * Extends the leases of many running attempts at once, each under the guard of
     * {@link #heartbeat}, in a few statements; returns those renewed. An attempt missing from the
     * answer was not renewed: its lease expired, or another attempt holds the operation, or there
     * is no record of it.
     */
    Set<LeaseRenewal> renewLeases(List<LeaseRenewal> leases, Duration lease);

    /**
     * Stores the result of attempt {@code attemptId}, holding {@code leaseToken}. This and every
     * other ending (failure, lease expiry, settlement) keeps the record for its retention from that
     * moment.
     */
    Transition complete(String tool, String key, long leaseToken, String attemptId, String resultJson,
            AttemptEnd end);

    /** Records the failure of attempt {@code attemptId}, holding {@code leaseToken}: safe, or uncertain. */
    Transition fail(String tool, String key, long leaseToken, String attemptId, boolean safe, String errorJson,
            AttemptEnd end);

    /**
     * Releases the claim of attempt {@code attemptId} whose answer was lost before its body
     * started (the claim's statement failed, so the attempt does not know whether it was
     * recorded): {@code failed_safe}, the effect not started, {@code releasedBy} beside it, only
     * while that attempt holds the record as its claim wrote it (lease token 1). A claim that was
     * not recorded, or a record another call holds, is a {@link Transition.LostRace}.
     */
    Transition releaseClaim(String tool, String key, String attemptId, String releasedBy);

    /**
     * Writes again the record that the attempt holding it found missing (not taken over: gone,
     * after a failover with asynchronous replication or a restore from a backup), with that
     * attempt on it. Applied: the record is there again, under the attempt's own lease token;
     * {@link Transition.LostRace}: a row of the key exists (another call claimed it meanwhile), and
     * nothing changed.
     */
    Transition recreate(LostRecord record);

    /** Settles an operation awaiting reconciliation as applied, with its result. */
    Transition settleApplied(String tool, String key, long expectedToken, String resultJson);

    /**
     * Settles an operation awaiting reconciliation as not applied; {@code releasedBy} (an
     * operator) lets even a {@code Retry.NEVER} tool run again.
     */
    Transition settleNotApplied(String tool, String key, long expectedToken, String releasedBy);

    /**
     * Appends a row to the attempt log. A row dated by its read ({@link AttemptRow#at()}) whose
     * outcome changed nothing (a replay, a conflict, "in progress", a refusal) may be written
     * later, in a batch: a crash can lose such answers, never anything else.
     */
    void logAttempt(AttemptRow row);

    /**
     * Tells {@code perTool} the tool of each queued answer that the database refuses for good
     * (the attempt log's writer splits its batch, logs that row by tool and key and writes the
     * rest): the metrics' count of {@link io.idempotent.runtime.MetricsListener#attemptLogRowRefused}.
     */
    void onRefusedAnswer(java.util.function.Consumer<String> perTool);

    /** Writes the answers queued for the attempt log before it returns. */
    void flushAttemptLog();

    /**
     * Ends a running attempt with its outcome: on its operation's record while no take-over
     * replaced it there, else in the log table. The key is part of the lookup so the database
     * finds either through an index, not a scan of the whole log.
     */
    void endAttempt(String tool, String key, String attemptId, AttemptOutcome outcome, String downstreamId, String detail);

    /**
     * One page of the attempt log of {@code tool}'s operation {@code key}, oldest first: its rows
     * with one of {@code outcomes}, skipping {@code offset}, at most {@code limit} (already
     * checked), and how many such rows there are.
     */
    AttemptPage attempts(String tool, String key, Set<AttemptOutcome> outcomes, int offset, int limit);

    /**
     * Operations awaiting reconciliation, oldest first: of {@code tool} (null: every tool), that
     * have waited at least {@code olderThan} by the database's clock.
     */
    List<StoredOperation> awaitingReconciliation(String tool, Duration olderThan, int limit);

    /** How many operations each tool has in each status ({@code onlyStatus} null: every status). */
    List<OperationCount> countByToolAndStatus(OperationStatus onlyStatus);

    /** How many operations {@link #purgeExpired} would delete now. */
    int countExpired();

    /** Operations in progress (an attempt holds or held the lease), oldest first. */
    List<StoredOperation> inProgress(int limit);

    /**
     * Deletes finished operations past their retention with their attempt logs, in one
     * consistent cut: a record is deleted with its log, or neither is.
     */
    int purgeExpired();

    /**
     * How long closing waits for the calls in flight, and then for the answers queued for the
     * attempt log to be written ({@code store.close.timeout}).
     */
    default Duration closeTimeout() {
        return AnswerLogLimits.DEFAULT.closeTimeout();
    }

    /**
     * The store's outbox ({@code tool_operation_outbox}): the relays' and the operator's side of
     * it. A completion writes its rows itself, from {@link AttemptEnd#messages()}.
     */
    OutboxRows outbox();

    /** Writes the answers queued for the attempt log (within {@link #closeTimeout()}), then releases the connections. */
    void close();

    /**
     * What transactional tools need of this store (claim, body and completion on one connection in
     * one transaction), or empty when the store cannot run them (a store whose statements run on
     * other threads than the caller's, or not on JDBC).
     */
    default java.util.Optional<StoreTransactions> transactions() {
        return java.util.Optional.empty();
    }
}
