package io.idempotent.runtime.internal.store;

import static io.idempotent.runtime.internal.store.StoreTables.ID;

import io.idempotent.runtime.OperationStatus;
import java.time.Duration;

/**
 * The guard of a transition: the operation it names and the state the caller observed. Every
 * transition names the row by {@code (tool, operation_key)} and adds what must still hold.
 * Apart from {@link OperationStateMachine} because it is the one builder of every guarded
 * statement of {@code tool_operations}: the state machine's transitions and the
 * {@link ApprovalQueue}'s decisions and lapses alike.
 */
final class Guard {

    private final StringBuilder sql = new StringBuilder(ID);
    private final Params params = new Params();

    private Guard(String tool, String key) {
        params.str(tool).str(key);
    }

    static Guard of(String tool, String key) {
        return new Guard(tool, key);
    }

    /**
     * The guard of every write of a running attempt: the operation is in progress under the
     * attempt's lease token, and the attempt on the row is this one. The token alone does not
     * fence: a record lost to a failover and claimed afresh starts again at token 1, which an
     * older attempt still running elsewhere also holds; only the attempt id tells them apart.
     * The row names its running attempt in {@code attempt_id} (written by the claim, the
     * take-over and a re-creation), a column no index reads, so a completion stays HOT.
     */
    static Guard running(String tool, String key, long leaseToken, String attemptId) {
        Guard guard = new Guard(tool, key).status(OperationStatus.IN_PROGRESS).token(leaseToken);
        guard.sql.append(" AND attempt_id = ?");
        guard.params.str(attemptId);
        return guard;
    }

    /** The condition, for a statement's {@code WHERE}. */
    String sql() {
        return sql.toString();
    }

    /** The condition's parameters, in order. */
    Params params() {
        return params;
    }

    Guard status(OperationStatus status) {
        sql.append(" AND status = ?");
        params.str(status.column());
        return this;
    }

    Guard token(long leaseToken) {
        sql.append(" AND lease_token = ?");
        params.lng(leaseToken);
        return this;
    }

    /** The lease has not expired, by the database's clock. */
    Guard leaseLive() {
        sql.append(" AND lease_until > CURRENT_TIMESTAMP");
        return this;
    }

    /** The lease has expired, by the database's clock. */
    Guard leaseExpired() {
        sql.append(" AND lease_until <= CURRENT_TIMESTAMP");
        return this;
    }

    Guard effectNotStarted() {
        sql.append(" AND effect_started = FALSE");
        return this;
    }

    /** The operation was first claimed less than {@code age} ago, by the database's clock. */
    Guard createdWithin(String nowPlusMillis, Duration age) {
        sql.append(" AND created_at > ").append(nowPlusMillis);
        params.lng(-age.toMillis());
        return this;
    }
}
