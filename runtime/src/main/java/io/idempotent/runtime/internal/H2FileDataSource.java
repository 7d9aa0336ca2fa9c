package io.idempotent.runtime.internal;

import io.idempotent.policy.internal.UrlCredentials;
import io.idempotent.runtime.internal.store.KnownStoreProblem;
import io.idempotent.runtime.internal.store.SqlStates;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Connections to an H2 file database that several JVMs share with {@code AUTO_SERVER}. When they
 * open it at the same moment, H2 hands it over through its lock file and refuses the openers
 * that come too early ("Lock file recently modified", "Database may be already in use"), though
 * a moment later they would connect to the JVM that won. Those refusals are retried until the
 * store's connect timeout; every other failure is reported at once. So is a file that a process
 * holds without sharing it (no {@code AUTO_SERVER}: another application, an H2 console): no JVM
 * will ever serve it, so waiting would only report it later.
 */
final class H2FileDataSource implements DataSource {

    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final String url;
    private final String user;
    private final String password;
    /** H2's WRONG_USER_OR_PASSWORD. */
    private static final int WRONG_PASSWORD = 28000;
    private static final System.Logger LOG = System.getLogger(H2FileDataSource.class.getName());

    /** H2's message (in a cause of DATABASE_ALREADY_OPEN_1) when another process locks the file itself. */
    private static final String FILE_LOCKED = "The file is locked";
    /** How long a lock without a sharing JVM must last to be a holder that does not share it, not a handover. */
    private static final long NOT_SHARED_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Duration patience;
    private final Path secretFile;
    /** The database's path without {@code .mv.db}, or null when it cannot be told. */
    private final Path database;
    /** Who holds the file when H2 refuses it, or null when the database's path cannot be told. */
    private final H2FileCheck check;

    /**
     * @param secretFile the store's {@link H2StoreSecret} when {@code password} is it, else null:
     *     a database created before stores had one still has the empty default password, which is
     *     then replaced by the secret on first use
     * @param database the database's path without {@code .mv.db}, or null when it cannot be told
     */
    H2FileDataSource(String url, String user, String password, Duration patience, Path secretFile, Path database) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.patience = patience;
        this.secretFile = secretFile;
        this.database = database;
        this.check = database == null ? null : new H2FileCheck(database);
    }

    /** What this data source's file errors mean, by who holds the file (shared with the store's failures). */
    H2FileCheck check() {
        return check;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return getConnection(user, password);
    }

    @Override
    public Connection getConnection(String username, String pass) throws SQLException {
        long deadline = System.nanoTime() + patience.toNanos();
        long lockedSince = 0;
        boolean unreadableOnce = false;
        while (true) {
            Connection connection;
            try {
                connection = DriverManager.getConnection(url, username, pass);
            } catch (SQLException e) {
                if (e.getErrorCode() == WRONG_PASSWORD && secretFile != null && pass.equals(password)) {
                    return adoptSecret(username, e);
                }
                if (check == null || !SqlStates.isH2FileState(e)) {
                    throw e;
                }
                Long holder = check.holder();
                boolean elsewhere = check.heldElsewhere(holder);
                if (SqlStates.isH2FileError(e) && !elsewhere) {
                    // Certain only when it fails again with no other process holding the file: the
                    // holder of a moment ago may have let go of it just now (it died, it handed over).
                    if (unreadableOnce) {
                        throw check.unreadable(e);
                    }
                    unreadableOnce = true;
                    continue;
                }
                unreadableOnce = false;
                if (!lockedWithoutSharer(e, holder)) {
                    lockedSince = 0;
                } else if (lockedSince == 0) {
                    lockedSince = System.nanoTime();
                } else if (!sharedByAutoServer() || System.nanoTime() - lockedSince > NOT_SHARED_NANOS) {
                    throw notShared(e);
                }
                if (System.nanoTime() - deadline > 0) {
                    throw elsewhere ? check.changingHands(e, holder) : e;
                }
                // Another JVM is opening the file right now, or the one that serves it is stalled;
                // it will serve us once it has opened it, or runs again.
                LockSupport.parkNanos(PAUSE_NANOS);
                continue;
            }
            if (check != null) {
                check.noteHolder();
            }
            return connection;
        }
    }

    /**
     * The file is locked by a process that does not share it: no {@code .lock.db} beside it (every
     * {@code AUTO_SERVER} JVM writes one while it holds the file), and, where the operating system
     * names the holder, a running process never seen serving the file. A JVM that shares the file
     * but is stalled may have lost its {@code .lock.db} to another JVM's failed take-over: that is a
     * store changing hands, not this. While JVMs hand the file over this lasts a moment; a holder
     * that does not share the file keeps it.
     */
    private boolean lockedWithoutSharer(SQLException e, Long holder) {
        if (e.getErrorCode() != 90020) {
            return false;
        }
        boolean fileLocked = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            fileLocked |= String.valueOf(t.getMessage()).startsWith(FILE_LOCKED);
        }
        if (!fileLocked || check.lockFileExists()) {
            return false;
        }
        if (!H2FileCheck.holdersKnown()) {
            return true;
        }
        return holder != null && check.heldElsewhere(holder) && !check.maybeStalledSharer(holder);
    }

    /** Whether this store's URL shares the file with other JVMs, so that a lock may be a handover. */
    private boolean sharedByAutoServer() {
        return url.toUpperCase(java.util.Locale.ROOT).contains(";AUTO_SERVER=TRUE");
    }

    private KnownStoreProblem notShared(SQLException e) {
        return new KnownStoreProblem("the H2 file " + database + ".mv.db is held by another process, which opened it"
                + " without AUTO_SERVER=TRUE and so does not share it", "H2 error " + e.getErrorCode(),
                "Stop that process (another application or an H2 console on the same file), or give it the store's"
                        + " URL with ;AUTO_SERVER=TRUE so that both JVMs share the file", e);
    }

    /**
     * Gives a database that still has the empty default password the store's secret; when the
     * database has another password, the secret file is not this database's.
     */
    private Connection adoptSecret(String username, SQLException refused) throws SQLException {
        Connection c;
        try {
            c = DriverManager.getConnection(url, username, "");
        } catch (SQLException e) {
            if (e.getErrorCode() != WRONG_PASSWORD) {
                refused.addSuppressed(e);
                throw refused;
            }
            KnownStoreProblem foreign = new KnownStoreProblem("the embedded store's secret " + secretFile
                    + " does not open the database " + (database == null ? UrlCredentials.mask(url) : database + ".mv.db") + ": the"
                    + " secret was deleted or replaced since the database was created", "H2 error " + WRONG_PASSWORD,
                    "Restore the secret from a backup taken with the database (they belong together), or configure"
                            + " store.password if the database has a password of its own; moving both files aside"
                            + " starts an empty store, which forgets every recorded operation", refused);
            foreign.addSuppressed(e);
            throw foreign;
        }
        // The password is a parameter, never part of the statement's text (H2StoreSecret also
        // validated it); the user name is quoted as an identifier.
        try (PreparedStatement st = c.prepareStatement("ALTER USER \""
                + username.toUpperCase(java.util.Locale.ROOT).replace("\"", "\"\"") + "\" SET PASSWORD ?")) {
            st.setString(1, password);
            st.execute();
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        LOG.log(System.Logger.Level.INFO, "the embedded store {0} had the empty default password; it now has the"
                + " generated secret kept beside it", UrlCredentials.mask(url));
        return c;
    }

    @Override
    public PrintWriter getLogWriter() {
        return DriverManager.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        // Connections come from DriverManager, whose log writer is global; not ours to change.
    }

    @Override
    public void setLoginTimeout(int seconds) {
        // The patience above is the login timeout.
    }

    @Override
    public int getLoginTimeout() {
        return (int) patience.toSeconds();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no parent logger");
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new SQLException("not a wrapper of " + type.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }
}
