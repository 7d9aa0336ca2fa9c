package io.idempotent.runtime.internal.store;

import static io.idempotent.runtime.internal.store.Rows.instant;
import static io.idempotent.runtime.internal.store.StoreTables.OUTBOX;

import io.idempotent.runtime.OutboxCounts;
import io.idempotent.runtime.OutboxEntry;
import io.idempotent.runtime.OutboxMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The outbox table of one store ({@code tool_operation_outbox}): the one class that writes it.
 * Its rows are inserted by the completion that ends their operation ({@link #insert}, inside the
 * completion's transaction), then move {@code pending -> sending -> delivered}, or to
 * {@code needs_reconciliation}, each move one conditional statement fenced by the row's
 * {@code claim_token} (zero rows: another relay or an operator got there first).
 */
public final class OutboxRows {

    /** A row a relay claimed: the message and the fencing token of the claim. */
    public record Claimed(OutboxMessage message, long claimToken) {
    }

    /** A row whose relay's claim ran out while it was {@code sending}. */
    public record Abandoned(long id, String tool, String destination, long claimToken, String claimedBy, int attempts) {
    }

    private static final String COLUMNS = "id, tool, operation_key, seq, destination, message, attempts, claim_token";

    /**
     * The rows a relay may take: pending, due, and every earlier message of their operation
     * delivered (a delivered message never changes again, so this stays true until the claim).
     */
    private static final String DUE = " FROM " + OUTBOX + " o WHERE o.status = 'pending' AND"
            + " o.next_attempt_at <= CURRENT_TIMESTAMP AND NOT EXISTS (SELECT 1 FROM " + OUTBOX + " p WHERE"
            + " p.tool = o.tool AND p.operation_key = o.operation_key AND p.seq < o.seq AND p.status <> 'delivered')"
            + " ORDER BY o.id FETCH FIRST ? ROWS ONLY";

    /** How many more candidates than it claims an H2 relay reads, so that racing relays pick different rows. */
    private static final int H2_CANDIDATES_PER_ROW = 4;

    private final StoreDatabase db;

    OutboxRows(StoreDatabase db) {
        this.db = db;
    }

    /**
     * Inserts an operation's messages as pending rows, in order from sequence 1, on {@code c}
     * and in its transaction (the caller's completion commits or rolls back both).
     */
    public static void insert(Connection c, String tool, String key, List<OutboxMessageDraft> messages)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + OUTBOX + " (tool, operation_key, seq,"
                + " destination, message, status, attempts, claim_token, next_attempt_at, created_at) VALUES (?, ?,"
                + " ?, ?, ?, 'pending', 0, 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)")) {
            int seq = 0;
            for (OutboxMessageDraft m : messages) {
                new Params().str(tool).str(key).lng(++seq).str(m.destination()).str(m.message()).bind(ps);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * Claims up to {@code limit} due rows for {@code relayId} for {@code claim}: one statement that
     * skips rows another relay's claim holds locked and re-checks each row's state; committed
     * before any send, so a relay that stops mid-send leaves its rows {@code sending}.
     */
    public List<Claimed> claim(String relayId, int limit, Duration claim) {
        String set = "UPDATE " + OUTBOX + " SET status = 'sending', attempts = attempts + 1, claim_token ="
                + " claim_token + 1, claimed_by = ?, claimed_until = " + db.dialect().nowPlusMillis() + ", last_state = ?";
        Params claimed = new Params().str(relayId).lng(claim.toMillis()).str(relayId + " claimed it to send; if that"
                + " relay stopped, whether the destination got it is unknown");
        List<Claimed> rows = new ArrayList<>();
        if (db.dialect().skipsLockedRows()) {
            String update = set + " WHERE id IN (SELECT o.id" + DUE + " FOR UPDATE SKIP LOCKED) AND status = 'pending'";
            rows.addAll(query("claim outbox rows in", db.dialect().returning(update, COLUMNS), claimed.then(
                    new Params().lng(limit)), OutboxRows::claimed));
        } else {
            // H2 parses FOR UPDATE SKIP LOCKED, but a claim statement with it held row locks long
            // enough for racing relays' other writes to time out (HYT00). Each row is claimed by a
            // compare-and-set of its claim token instead; racing relays start at random candidates.
            List<long[]> candidates = query("find due outbox rows in", "SELECT o.id, o.claim_token" + DUE,
                    new Params().lng((long) limit * H2_CANDIDATES_PER_ROW), rs -> {
                        List<long[]> list = new ArrayList<>();
                        while (rs.next()) {
                            list.add(new long[] {rs.getLong(1), rs.getLong(2)});
                        }
                        return list;
                    });
            java.util.Collections.shuffle(candidates);
            String update = db.dialect().returning(set + " WHERE id = ? AND claim_token = ? AND status = 'pending'",
                    COLUMNS);
            for (int i = 0; i < candidates.size() && rows.size() < limit; i++) {
                long[] row = candidates.get(i);
                Params params = new Params().str(relayId).lng(claim.toMillis()).str(relayId + " claimed it to send;"
                        + " if that relay stopped, whether the destination got it is unknown").lng(row[0]).lng(row[1]);
                rows.addAll(query("claim an outbox row in", update, params, OutboxRows::claimed));
            }
        }
        rows.sort(Comparator.comparingLong(c -> c.message().id()));
        return rows;
    }

    private static List<Claimed> claimed(ResultSet rs) throws SQLException {
        List<Claimed> claimed = new ArrayList<>();
        while (rs.next()) {
            claimed.add(new Claimed(new OutboxMessage(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4),
                    rs.getString(5), rs.getString(6), rs.getInt(7)), rs.getLong(8)));
        }
        return claimed;
    }

    /** Marks a sent row delivered, if this claim still holds it (or it awaits reconciliation under it). */
    public boolean delivered(long id, long token, String state) {
        return update("record a delivery in", "status = 'delivered', delivered_at = CURRENT_TIMESTAMP, claimed_until ="
                + " NULL, last_state = ? WHERE id = ? AND claim_token = ? AND status IN ('sending',"
                + " 'needs_reconciliation')", new Params().str(state).lng(id).lng(token));
    }

    /** Puts a claimed row back to pending, due after {@code delay}, if this claim still holds it. */
    public boolean retryLater(long id, long token, Duration delay, String state) {
        return update("record a failed send in", "status = 'pending', next_attempt_at = "
                + db.dialect().nowPlusMillis() + ", claimed_until = NULL, last_state = ? WHERE id = ? AND"
                + " claim_token = ? AND status = 'sending'", new Params().lng(delay.toMillis()).str(state).lng(id)
                        .lng(token));
    }

    /** Gives a claimed row back unsent (its claim ran low before its turn), if this claim still holds it. */
    public boolean release(long id, long token) {
        return update("release an outbox row in", "status = 'pending', attempts = attempts - 1, claimed_until = NULL,"
                + " last_state = 'released unsent' WHERE id = ? AND claim_token = ? AND status = 'sending'",
                new Params().lng(id).lng(token));
    }

    /** Sends a claimed row to reconciliation with {@code state}, if this claim still holds it. */
    public boolean uncertain(long id, long token, String state) {
        return update("record an uncertain delivery in", "status = 'needs_reconciliation', claimed_until = NULL,"
                + " last_state = ? WHERE id = ? AND claim_token = ? AND status = 'sending'",
                new Params().str(state).lng(id).lng(token));
    }

    /** The rows left {@code sending} by a relay whose claim ran out (it stopped, or stalled past its claim). */
    public List<Abandoned> abandoned(int limit) {
        return query("read abandoned outbox rows in", "SELECT id, tool, destination, claim_token, claimed_by, attempts FROM "
                + OUTBOX + " WHERE status = 'sending' AND claimed_until < CURRENT_TIMESTAMP ORDER BY id FETCH FIRST ?"
                + " ROWS ONLY", new Params().lng(limit), rs -> {
                    List<Abandoned> list = new ArrayList<>();
                    while (rs.next()) {
                        list.add(new Abandoned(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4),
                                rs.getString(5), rs.getInt(6)));
                    }
                    return list;
                });
    }

    /**
     * Takes an abandoned row up again: to be sent again at once under a new claim token (so the
     * stalled relay can no longer record anything of it), or to reconciliation under its old one
     * (so a stalled relay whose send did arrive can still record the delivery).
     */
    public boolean takeUpAbandoned(Abandoned row, boolean sendAgain, String state) {
        return update("take up an abandoned outbox row in", (sendAgain ? "status = 'pending', next_attempt_at ="
                + " CURRENT_TIMESTAMP, claim_token = claim_token + 1" : "status = 'needs_reconciliation'")
                + ", claimed_until = NULL, last_state = ? WHERE id = ? AND claim_token = ? AND status = 'sending' AND"
                + " claimed_until < CURRENT_TIMESTAMP", new Params().str(state).lng(row.id()).lng(row.claimToken()));
    }

    /** An operator's decision on a row awaiting reconciliation: delivered, or to be sent again. */
    public boolean settle(long id, boolean delivered, String state) {
        return update("settle an outbox row in", (delivered ? "status = 'delivered', delivered_at = CURRENT_TIMESTAMP"
                : "status = 'pending', attempts = 0, next_attempt_at = CURRENT_TIMESTAMP, claim_token = claim_token"
                        + " + 1") + ", last_state = ? WHERE id = ? AND status = 'needs_reconciliation'",
                new Params().str(state).lng(id));
    }

    /** The undelivered rows, the oldest first, without their text. */
    public List<OutboxEntry> undelivered(int limit) {
        return query("list the outbox of", "SELECT id, tool, operation_key, seq, destination, status, attempts,"
                + " created_at, next_attempt_at, last_state FROM " + OUTBOX + " WHERE status <> 'delivered' ORDER BY"
                + " id FETCH FIRST ? ROWS ONLY", new Params().lng(limit), rs -> {
                    List<OutboxEntry> list = new ArrayList<>();
                    while (rs.next()) {
                        list.add(new OutboxEntry(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4),
                                rs.getString(5), rs.getString(6), rs.getInt(7), instant(rs, 8), instant(rs, 9),
                                rs.getString(10)));
                    }
                    return list;
                });
    }

    /** The rows by state, and the age of the oldest undelivered one by the database's clock. */
    public OutboxCounts counts() {
        return counts(true);
    }

    /**
     * As {@link #counts()}, without counting the delivered rows ({@code delivered} is -1): what a
     * relay reports after each pass, read through the state index, as the delivered rows (kept
     * until their operations are purged) may be most of the table.
     */
    public OutboxCounts undeliveredCounts() {
        return counts(false);
    }

    private OutboxCounts counts(boolean delivered) {
        return query("count the outbox of", "SELECT status, COUNT(*), MIN(created_at), CURRENT_TIMESTAMP FROM " + OUTBOX
                + (delivered ? "" : " WHERE status IN ('pending', 'sending', 'needs_reconciliation')")
                + " GROUP BY status", new Params(), rs -> {
                    long pending = 0;
                    long deliveredRows = delivered ? 0 : -1;
                    long reconcile = 0;
                    Instant oldest = null;
                    Instant now = null;
                    while (rs.next()) {
                        String status = rs.getString(1);
                        long n = rs.getLong(2);
                        now = instant(rs, 4);
                        if (status.equals("delivered")) {
                            deliveredRows += n;
                            continue;
                        }
                        if (status.equals("needs_reconciliation")) {
                            reconcile += n;
                        } else {
                            pending += n;
                        }
                        Instant created = instant(rs, 3);
                        oldest = oldest == null || created.isBefore(oldest) ? created : oldest;
                    }
                    Duration age = oldest == null ? Duration.ZERO : Duration.between(oldest, now);
                    return new OutboxCounts(pending, deliveredRows, reconcile, age.isNegative() ? Duration.ZERO : age);
                });
    }

    private interface Reader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> T query(String what, String sql, Params params, Reader<T> reader) {
        db.ensureSchema();
        try (Connection c = db.connection(); PreparedStatement ps = c.prepareStatement(sql)) {
            params.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                return reader.read(rs);
            }
        } catch (SQLException e) {
            throw db.unavailable(what, e);
        }
    }

    private boolean update(String what, String setAndWhere, Params params) {
        int rows = db.execute("UPDATE " + OUTBOX + " SET " + setAndWhere, what, params::bind);
        if (rows > 1) {
            throw new IllegalStateException(db.described() + ": \"" + what + "\" changed " + rows + " rows; its guard"
                    + " names one outbox row by its primary key");
        }
        return rows == 1;
    }
}
