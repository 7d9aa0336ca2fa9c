package io.idempotent.runtime.internal;

import io.idempotent.runtime.internal.store.SqlStates;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
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
 * store's connect timeout; every other failure is reported at once.
 */
final class H2FileDataSource implements DataSource {

    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final String url;
    private final String user;
    private final String password;
    /** H2's WRONG_USER_OR_PASSWORD. */
    private static final int WRONG_PASSWORD = 28000;
    private static final System.Logger LOG = System.getLogger(H2FileDataSource.class.getName());

    private final Duration patience;
    private final boolean generatedSecret;

    /**
     * @param generatedSecret whether {@code password} is the store's {@link H2StoreSecret}: a
     *     database created before stores had one still has the empty default password, which is
     *     then replaced by the secret on first use
     */
    H2FileDataSource(String url, String user, String password, Duration patience, boolean generatedSecret) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.patience = patience;
        this.generatedSecret = generatedSecret;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return getConnection(user, password);
    }

    @Override
    public Connection getConnection(String username, String pass) throws SQLException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            try {
                return DriverManager.getConnection(url, username, pass);
            } catch (SQLException e) {
                if (e.getErrorCode() == WRONG_PASSWORD && generatedSecret && pass.equals(password)) {
                    return adoptSecret(username, e);
                }
                if (!SqlStates.isH2Handover(e) || System.nanoTime() - deadline > 0) {
                    throw e;
                }
                // Another JVM is opening the file right now; it will serve us once it has.
                LockSupport.parkNanos(PAUSE_NANOS);
            }
        }
    }

    /** Gives a database that still has the empty default password the store's secret. */
    private Connection adoptSecret(String username, SQLException refused) throws SQLException {
        Connection c;
        try {
            c = DriverManager.getConnection(url, username, "");
        } catch (SQLException e) {
            refused.addSuppressed(e);
            throw refused;
        }
        try (Statement st = c.createStatement()) {
            // The secret is base64url: no quote can end the literal.
            st.execute("ALTER USER \"" + username.toUpperCase(java.util.Locale.ROOT).replace("\"", "\"\"")
                    + "\" SET PASSWORD '" + password + "'");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        LOG.log(System.Logger.Level.INFO, "the embedded store {0} had the empty default password; it now has the"
                + " generated secret kept beside it", url);
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
