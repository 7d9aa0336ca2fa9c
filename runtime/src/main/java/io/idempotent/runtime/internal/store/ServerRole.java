package io.idempotent.runtime.internal.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What a PostgreSQL server is, asked when the store starts (its schema is prepared). A standby
 * refuses every write, so the store refuses it with the setting that avoids it, rather than fail
 * each call. A primary whose standbys all replicate asynchronously is said in one sentence: a
 * failover then loses the records of its last moments. Servers that lack these functions or
 * views (a PostgreSQL-compatible database), and users who may not read them, are not refused.
 */
final class ServerRole {

    private ServerRole() {
    }

    /** Refuses a standby ({@code pg_is_in_recovery()}) as a configuration error. */
    static void requirePrimary(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_is_in_recovery()")) {
            if (rs.next() && rs.getBoolean(1)) {
                throw new KnownStoreProblem("the server is a standby (pg_is_in_recovery() is true), which refuses"
                        + " every write", null, "Add targetServerType=primary to store.url"
                        + " (jdbc:postgresql://host1:5432,host2:5432/db?targetServerType=primary), so that the driver"
                        + " connects to the primary whichever host answers first; or point store.url at the primary",
                        null);
            }
        } catch (SQLException e) {
            if (e instanceof KnownStoreProblem || e.getSQLState() == null || !e.getSQLState().startsWith("42")) {
                throw e;
            }
            // No such function: not PostgreSQL itself, and no standby that this check knows.
        }
    }

    /**
     * One sentence when the server's standbys all replicate asynchronously, or this session's
     * commits do not wait for them ({@code synchronous_commit} {@code local} or {@code off}); null
     * when it has none, when one is synchronous, or when this user may not read
     * {@code pg_stat_replication.sync_state} (it needs {@code pg_read_all_stats}).
     */
    static String asynchronousStandbys(Connection c) {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*), count(sync_state),"
                + " count(*) FILTER (WHERE sync_state IN ('sync', 'quorum')), current_setting('synchronous_commit')"
                + " FROM pg_stat_replication")) {
            if (!rs.next()) {
                return null;
            }
            long standbys = rs.getLong(1);
            long readable = rs.getLong(2);
            long synchronous = rs.getLong(3);
            String commit = rs.getString(4);
            if (standbys == 0 || readable < standbys) {
                return null;
            }
            String why;
            if (synchronous == 0) {
                why = (standbys - synchronous) + " of " + standbys + " standby" + (standbys == 1 ? "" : "s")
                        + " asynchronous";
            } else if ("local".equals(commit) || "off".equals(commit)) {
                why = "synchronous_commit is " + commit + " for the store's user, so its commits do not wait for"
                        + " the " + standbys + " standby" + (standbys == 1 ? "" : "s");
            } else {
                return null;
            }
            return "the primary's standbys replicate asynchronously (" + why + "): a failover loses the operations"
                    + " recorded in its last moments, and a tool without a downstream key may then run those calls'"
                    + " bodies a second time; synchronous replication (synchronous_standby_names) keeps them";
        } catch (SQLException e) {
            return null; // not readable here (a privilege, another database): nothing to say, nothing refused
        }
    }
}
