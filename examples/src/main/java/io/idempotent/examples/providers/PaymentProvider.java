package io.idempotent.examples.providers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A payment provider double that honours idempotency keys the way real providers do: the first
 * answer per key is stored (for its retention window) and returned to every repeat; a different
 * payload under the same key is refused.
 *
 * <p>Not final: the contract tests wrap its calls with the test kit's faults in a subclass, as a
 * user wraps a concrete client.
 */
public class PaymentProvider {

    /** The provider's refusal of a reused key with another payload (HTTP 422 at real providers). */
    public static final class KeyReusedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        KeyReusedException(String message) {
            super(message);
        }
    }

    private final ProviderDatabase db;
    private final Faults faults;
    /** Whose calls the provider's events count: "psp", or the desk that called it. */
    private final String source;

    /** A provider over {@code db}, with {@code faults} on its network. */
    public PaymentProvider(ProviderDatabase db, Faults faults) {
        this(db, faults, "psp");
    }

    /**
     * The same provider (one table of answers per idempotency key), whose invocations and effects
     * are counted under {@code source}: the demo's table tells the desks' refunds apart by it.
     */
    public PaymentProvider(ProviderDatabase db, Faults faults, String source) {
        this.db = db;
        this.faults = faults;
        this.source = source;
    }

    /** Refunds {@code amountCents} of {@code invoiceId} once per {@code idempotencyKey}; returns the refund id. */
    public synchronized String refund(String idempotencyKey, String invoiceId, long amountCents) {
        String payload = invoiceId + ":" + amountCents;
        String refundId;
        try (Connection c = db.connect()) {
            db.event(c, source, "invocation", idempotencyKey);
            String stored = null;
            String storedPayload = null;
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT payload, refund_id FROM psp_answers WHERE idempotency_key = ?")) {
                ps.setString(1, idempotencyKey);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        storedPayload = rs.getString(1);
                        stored = rs.getString(2);
                    }
                }
            }
            if (stored != null && !storedPayload.equals(payload)) {
                throw new KeyReusedException("idempotency key " + idempotencyKey + " was used for " + storedPayload);
            }
            if (stored != null) {
                refundId = stored;
            } else {
                refundId = "re_" + Math.abs(idempotencyKey.hashCode());
                try (PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO psp_answers (idempotency_key, payload, refund_id) VALUES (?, ?, ?)")) {
                    ps.setString(1, idempotencyKey);
                    ps.setString(2, payload);
                    ps.setString(3, refundId);
                    ps.executeUpdate();
                }
                db.event(c, source, "effect", "refunded " + amountCents + " on " + invoiceId);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        faults.afterCommit("psp");
        return refundId;
    }
}
