package io.idempotent.examples.providers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * A mail provider double with no idempotency key: every send is a new email. It can be searched
 * by a reference we choose and send along, which is what the reconciler uses.
 *
 * <p>Not final: the contract tests wrap its calls with the test kit's faults in a subclass, as a
 * user wraps a concrete client.
 */
public class MailProvider {

    private final ProviderDatabase db;
    private final Faults faults;

    /** A provider over {@code db}, with {@code faults} on its network. */
    public MailProvider(ProviderDatabase db, Faults faults) {
        this.db = db;
        this.faults = faults;
    }

    /** Sends an email; returns the provider's message id. */
    public String send(String reference, String recipient, String subject) {
        long id;
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO mail_messages (reference, recipient, subject) VALUES (?, ?, ?)",
                java.sql.Statement.RETURN_GENERATED_KEYS)) {
            db.event(c, "mail", "invocation", reference);
            ps.setString(1, reference);
            ps.setString(2, recipient);
            ps.setString(3, subject);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                id = keys.getLong(1);
            }
            db.event(c, "mail", "effect", "sent \"" + subject + "\" to " + recipient);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        faults.afterCommit("mail");
        return "msg_" + id;
    }

    /** The message id of the email sent with {@code reference}, if any (the provider's search API). */
    public Optional<String> findByReference(String reference) {
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT id FROM mail_messages WHERE reference = ? ORDER BY id")) {
            ps.setString(1, reference);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of("msg_" + rs.getLong(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
