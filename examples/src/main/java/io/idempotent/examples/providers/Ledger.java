package io.idempotent.examples.providers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The accounts' ledger: one line per operation key (a unique column), so booking the same key
 * again finds the line that is there instead of booking a second one.
 *
 * <p>Not final: the contract tests wrap its calls with the test kit's faults in a subclass.
 */
public class Ledger {

    private final ProviderDatabase db;
    private final Faults faults;

    /** The ledger in {@code db}, with {@code faults} on its connection. */
    public Ledger(ProviderDatabase db, Faults faults) {
        this.db = db;
        this.faults = faults;
    }

    /** Books a credit of {@code amountCents} on {@code invoiceId} once per {@code operationKey}; returns the line's id. */
    public synchronized long bookCredit(String operationKey, String invoiceId, long amountCents) {
        long line;
        try (Connection c = db.connect()) {
            db.event(c, "ledger", "invocation", operationKey);
            Long existing = lineOf(c, operationKey);
            if (existing != null) {
                line = existing;
            } else {
                try (PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO ledger_lines (operation_key, invoice_id, amount_cents) VALUES (?, ?, ?)")) {
                    ps.setString(1, operationKey);
                    ps.setString(2, invoiceId);
                    ps.setLong(3, amountCents);
                    ps.executeUpdate();
                }
                db.event(c, "ledger", "effect", "credit " + amountCents + " on " + invoiceId);
                line = lineOf(c, operationKey);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        faults.afterCommit("ledger");
        return line;
    }

    private static Long lineOf(Connection c, String operationKey) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM ledger_lines WHERE operation_key = ?")) {
            ps.setString(1, operationKey);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }
}
