package io.idempotent.runtime;

import java.lang.reflect.Type;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The operator's view of the store: look up an operation and its attempts, list what awaits
 * reconciliation, and settle an uncertain operation by hand after checking the downstream.
 * An operation is named by its tool and its key together: two tools whose keys render the same
 * text are two operations. Obtained from {@link IdempotentRuntime#operations()}.
 */
public interface Operations {

    /**
     * The record of {@code tool}'s operation {@code key} in the store named {@code store}, with
     * the first page of its attempt log ({@link AttemptPage#FIRST_PAGE} rows, oldest first) and
     * the log's size ({@link OperationRecord#attemptCount()}); read the rest with
     * {@link #attemptLog(String, String, String, int, int)}.
     */
    Optional<OperationRecord> find(String store, String tool, String key);

    /**
     * One page of the attempt log of {@code tool}'s operation {@code key}, oldest first, with the
     * log's size; an unknown key has an empty log.
     *
     * @param offset how many rows to skip (not negative)
     * @param limit at most this many rows (1 to {@link AttemptPage#MAX_LIMIT})
     * @throws IllegalArgumentException if {@code offset} or {@code limit} is out of range
     */
    default AttemptPage attemptLog(String store, String tool, String key, int offset, int limit) {
        return attemptLog(store, tool, key, EnumSet.allOf(AttemptOutcome.class), offset, limit);
    }

    /**
     * One page of the rows of the attempt log of {@code tool}'s operation {@code key} that have one
     * of {@code outcomes} (an operator's settlements, say), oldest first, with how many such rows
     * there are.
     *
     * @param outcomes the outcomes to read (not empty)
     * @param offset how many of those rows to skip (not negative)
     * @param limit at most this many rows (1 to {@link AttemptPage#MAX_LIMIT})
     * @throws IllegalArgumentException if {@code outcomes} is empty, or {@code offset} or
     *     {@code limit} is out of range
     */
    AttemptPage attemptLog(String store, String tool, String key, Set<AttemptOutcome> outcomes, int offset,
            int limit);

    /** The record of {@code tool}'s operation {@code key} in the default store. */
    default Optional<OperationRecord> find(String tool, String key) {
        return find("default", tool, key);
    }

    /** Operations in {@code needs_reconciliation}, oldest first, at most {@code limit}. */
    default List<OperationRecord> awaitingReconciliation(String store, int limit) {
        return awaitingReconciliation(store, null, Duration.ZERO, limit);
    }

    /**
     * The reconciliation queue: operations in {@code needs_reconciliation}, the oldest (first
     * claimed longest ago) first.
     *
     * @param tool only this tool's operations; null for every tool
     * @param olderThan only operations first claimed at least this long ago (database clock);
     *     {@link Duration#ZERO} for all
     * @param limit at most this many (positive)
     */
    List<OperationRecord> awaitingReconciliation(String store, String tool, Duration olderThan, int limit);

    /** How many operations each tool has in each status, ordered by tool and status. */
    List<OperationCount> countByToolAndStatus(String store);

    /**
     * How many operations await reconciliation, per tool (tools with none are absent). Cheaper
     * than {@link #countByToolAndStatus}: it reads only the uncertain operations.
     */
    Map<String, Long> countAwaitingReconciliation(String store);

    /** How many operations {@link #purgeExpired} would delete if it ran now. */
    int countExpired(String store);

    /**
     * Operations in {@code in_progress}, oldest first, at most {@code limit}: attempts running
     * now, and those whose worker died and whose next call will find the lease expired
     * ({@link OperationRecord#leaseUntil()}).
     */
    List<OperationRecord> inProgress(String store, int limit);

    /**
     * Records that the effect of an uncertain operation did happen, with the result the tool
     * would have returned; duplicates then replay it. The result is checked against the return
     * type that this JVM saw the tool called with; in a JVM that never ran the tool (an operator
     * console), use {@link #settleApplied(String, String, String, Object, Type, String)}.
     *
     * @param tool the tool's name, as in {@link OperationRecord#tool()}
     * @param result the result (serialised as JSON like any stored result; null for void tools)
     * @param operator who decided, for the attempt log
     * @throws IllegalStateException if the operation is not awaiting reconciliation
     * @throws IllegalArgumentException if the result does not fit the tool's return type, or the
     *     type is not known in this JVM
     */
    void settleApplied(String store, String tool, String key, Object result, String operator);

    /**
     * Records that the effect of an uncertain operation did happen, with the result the tool
     * would have returned, after checking that the result replays unchanged as the tool's
     * {@code resultType} (and is not null unless the tool is void): a result that would replay as
     * something else is refused and the operation stays {@code needs_reconciliation}.
     *
     * @param tool the tool's name, as in {@link OperationRecord#tool()}
     * @param result the result (serialised as JSON like any stored result; null for void tools)
     * @param resultType the tool method's generic return type ({@code Refund.class}, or
     *     {@code new ResultType<List<Refund>>() {}.type()}; {@code void.class} for void tools)
     * @param operator who decided, for the attempt log
     * @throws IllegalStateException if the operation is not awaiting reconciliation
     * @throws IllegalArgumentException if the result does not fit {@code resultType}
     */
    void settleApplied(String store, String tool, String key, Object result, Type resultType, String operator);

    /**
     * Records that the effect of an uncertain operation did not happen: the next call with the
     * key runs the body again (also for {@code Retry.NEVER} tools, since a person decided).
     *
     * @param tool the tool's name, as in {@link OperationRecord#tool()}
     * @param reason why, for the attempt log
     * @param operator who decided, for the attempt log
     * @throws IllegalStateException if the operation is not awaiting reconciliation
     */
    void settleNotApplied(String store, String tool, String key, String reason, String operator);

    /**
     * Deletes the records (and attempt logs) of finished operations whose retention has passed:
     * {@code completed}, {@code failed_safe} and {@code denied} ones. Operations that are in
     * progress, approved, or await approval or reconciliation are never deleted, nor is an operation
     * whose outbox still holds an undelivered message ({@link OperationContext#send}); a purged operation's
     * delivered messages go with it. Until a record is purged it still answers duplicates.
     * Run it from a scheduled job. It is one statement, which must finish within the store's
     * {@code store.socket.timeout} (PostgreSQL, 10 seconds unless configured): run it often
     * enough to keep each run small, or from a runtime configured with a longer timeout.
     *
     * @return how many operations were deleted
     */
    int purgeExpired(String store);
}
