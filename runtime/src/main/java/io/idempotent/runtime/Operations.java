package io.idempotent.runtime;

import java.lang.reflect.Type;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's view of the store: look up an operation and its attempts, list what awaits
 * reconciliation, and settle an uncertain operation by hand after checking the downstream.
 * An operation is named by its tool and its key together: two tools whose keys render the same
 * text are two operations. Obtained from {@link IdempotentRuntime#operations()}.
 */
public interface Operations {

    /**
     * How many entries of an operation's attempt log a record holds when no page is asked for
     * ({@link #find(String, String, String)}, the reconciliation and in-progress lists, the
     * record a reconciler gets). A looping caller can give one key thousands of answers; every
     * one is written, and a full page means there may be more: read them with
     * {@link #find(String, String, String, int, int)}.
     */
    int DEFAULT_ATTEMPT_PAGE = 1000;

    /**
     * The record of {@code tool}'s operation {@code key} in the store named {@code store}, with
     * the first {@link #DEFAULT_ATTEMPT_PAGE} entries of its attempt log, oldest first.
     */
    default Optional<OperationRecord> find(String store, String tool, String key) {
        return find(store, tool, key, 0, DEFAULT_ATTEMPT_PAGE);
    }

    /**
     * The record of {@code tool}'s operation {@code key} in the store named {@code store}, with one
     * page of its attempt log: at most {@code attemptLimit} entries, oldest first, from the
     * {@code attemptsFrom}-th (0 for the oldest). A page shorter than {@code attemptLimit} is the
     * last one.
     *
     * @throws IllegalArgumentException if {@code attemptsFrom} is negative or {@code attemptLimit}
     *     is not positive
     */
    Optional<OperationRecord> find(String store, String tool, String key, int attemptsFrom, int attemptLimit);

    /** The record of {@code tool}'s operation {@code key} in the default store (the first page of its attempt log). */
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
     * {@code completed} and {@code failed_safe} ones. Operations that are in progress or await
     * reconciliation are never deleted. Until a record is purged it still answers duplicates.
     * Run it from a scheduled job.
     *
     * @return how many operations were deleted
     */
    int purgeExpired(String store);
}
