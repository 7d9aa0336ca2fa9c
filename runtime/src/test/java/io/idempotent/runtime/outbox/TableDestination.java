package io.idempotent.runtime.outbox;

import io.idempotent.runtime.OutboxMessage;
import io.idempotent.runtime.OutboxSender;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A deduplicating destination that outlives the process that sends to it: tables in the test's
 * database, one row per hit (every send) and one per business effect (each idempotency key once),
 * counted apart as the seed's rule asks.
 */
public final class TableDestination implements OutboxSender {

    private final String url;
    private final String user;
    private final String password;
    /** What happens after the effect committed and before the send returns (a crash, for a test). */
    private final Runnable afterEffect;

    /** A destination in the database at {@code url}. */
    public TableDestination(String url, String user, String password, Runnable afterEffect) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.afterEffect = afterEffect;
    }

    /** Creates the destination's tables. */
    public void create() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS test_destination_hits (idempotency_key VARCHAR(600) NOT NULL)");
            st.execute("CREATE TABLE IF NOT EXISTS test_destination_effects (idempotency_key VARCHAR(600) PRIMARY KEY)");
        }
    }

    /** Drops the destination's tables. */
    public void drop() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS test_destination_hits");
            st.execute("DROP TABLE IF EXISTS test_destination_effects");
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    @Override
    public void send(OutboxMessage message) throws SQLException {
        try (Connection c = connect()) {
            try (PreparedStatement hit = c.prepareStatement("INSERT INTO test_destination_hits VALUES (?)")) {
                hit.setString(1, message.idempotencyKey());
                hit.executeUpdate();
            }
            try (PreparedStatement effect = c.prepareStatement("INSERT INTO test_destination_effects SELECT ? WHERE"
                    + " NOT EXISTS (SELECT 1 FROM test_destination_effects WHERE idempotency_key = ?)")) {
                effect.setString(1, message.idempotencyKey());
                effect.setString(2, message.idempotencyKey());
                effect.executeUpdate();
            }
        }
        afterEffect.run();
    }

    @Override
    public boolean deduplicates(String destination) {
        return true;
    }

    /** The idempotency keys of every hit, in no particular order. */
    public List<String> hits() throws SQLException {
        return keys("test_destination_hits");
    }

    /** The idempotency keys applied, once each. */
    public List<String> effects() throws SQLException {
        return keys("test_destination_effects");
    }

    private List<String> keys(String table) throws SQLException {
        List<String> keys = new ArrayList<>();
        try (Connection c = connect(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT idempotency_key FROM " + table)) {
            while (rs.next()) {
                keys.add(rs.getString(1));
            }
        }
        return keys;
    }
}
