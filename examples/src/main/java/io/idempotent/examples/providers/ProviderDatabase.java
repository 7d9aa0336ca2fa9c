package io.idempotent.examples.providers;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The durable state of the downstream doubles (payment provider, mail provider, deployment API),
 * in an H2 file of their own that every JVM of the demo shares: a worker that halts mid-call
 * leaves its effect behind, as a real provider would. Every request that reaches a provider is
 * counted as an invocation; every request that changed something as a business effect.
 */
public final class ProviderDatabase {

    private final String url;

    /** The provider database under {@code dir}. */
    public ProviderDatabase(Path dir) {
        this.url = "jdbc:h2:file:" + dir.toAbsolutePath().resolve("providers") + ";AUTO_SERVER=TRUE;WRITE_DELAY=0";
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS provider_events (id BIGINT AUTO_INCREMENT PRIMARY KEY,"
                    + " provider VARCHAR(40) NOT NULL, kind VARCHAR(20) NOT NULL, detail VARCHAR(400))");
            st.execute("CREATE TABLE IF NOT EXISTS psp_answers (idempotency_key VARCHAR(600) PRIMARY KEY,"
                    + " payload VARCHAR(400) NOT NULL, refund_id VARCHAR(100) NOT NULL)");
            st.execute("CREATE TABLE IF NOT EXISTS mail_messages (id BIGINT AUTO_INCREMENT PRIMARY KEY,"
                    + " reference VARCHAR(600) NOT NULL, recipient VARCHAR(200) NOT NULL, subject VARCHAR(200))");
            st.execute("CREATE TABLE IF NOT EXISTS deploy_targets (service VARCHAR(100) PRIMARY KEY,"
                    + " version VARCHAR(40) NOT NULL)");
            st.execute("CREATE TABLE IF NOT EXISTS ledger_lines (id BIGINT AUTO_INCREMENT PRIMARY KEY,"
                    + " operation_key VARCHAR(600) NOT NULL UNIQUE, invoice_id VARCHAR(100) NOT NULL,"
                    + " amount_cents BIGINT NOT NULL)");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open the provider database " + url, e);
        }
    }

    /**
     * Holds the database open until the returned handle is closed, so that the many short
     * connections of a test do not each reopen the file.
     */
    public AutoCloseable keepOpen() {
        try {
            return connect();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open the provider database " + url, e);
        }
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, "sa", "");
    }

    /** Records that a request reached {@code provider} ({@code invocation}) or changed something ({@code effect}). */
    void event(Connection c, String provider, String kind, String detail) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO provider_events (provider, kind, detail) VALUES (?, ?, ?)")) {
            ps.setString(1, provider);
            ps.setString(2, kind);
            ps.setString(3, detail);
            ps.executeUpdate();
        }
    }

    /** How many events of {@code kind} {@code provider} recorded. */
    public int count(String provider, String kind) {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT count(*) FROM provider_events WHERE provider = ? AND kind = ?")) {
            ps.setString(1, provider);
            ps.setString(2, kind);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
