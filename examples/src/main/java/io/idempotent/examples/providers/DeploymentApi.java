package io.idempotent.examples.providers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * A deployment API with a convergent operation: "set the target version of a service to v42".
 * Setting the version a service already targets changes nothing, so a repeat converges; only a
 * change of target is a business effect.
 *
 * <p>Not final: the contract tests wrap its calls with the test kit's faults in a subclass, as a
 * user wraps a concrete client.
 */
public class DeploymentApi {

    private final ProviderDatabase db;
    private final Faults faults;

    /** An API over {@code db}, with {@code faults} on its network. */
    public DeploymentApi(ProviderDatabase db, Faults faults) {
        this.db = db;
        this.faults = faults;
    }

    /** Sets the target version; returns whether the target changed. */
    public synchronized boolean setTarget(String service, String version) {
        boolean changed;
        try (Connection c = db.connect()) {
            db.event(c, "deploy", "invocation", service + "=" + version);
            changed = !target(c, service).map(version::equals).orElse(false);
            if (changed) {
                try (PreparedStatement ps = c.prepareStatement(
                        "MERGE INTO deploy_targets (service, version) KEY (service) VALUES (?, ?)")) {
                    ps.setString(1, service);
                    ps.setString(2, version);
                    ps.executeUpdate();
                }
                db.event(c, "deploy", "effect", service + " -> " + version);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        faults.afterCommit("deploy");
        return changed;
    }

    /** The version {@code service} targets now, if any. */
    public Optional<String> target(String service) {
        try (Connection c = db.connect()) {
            return target(c, service);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Optional<String> target(Connection c, String service) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT version FROM deploy_targets WHERE service = ?")) {
            ps.setString(1, service);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }
}
