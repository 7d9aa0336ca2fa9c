package io.idempotent.runtime.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.DriverDataSource;
import io.idempotent.policy.internal.UrlCredentials;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.internal.RuntimeConfiguration.StoreSettings;
import io.idempotent.runtime.internal.store.Dialect;
import io.idempotent.runtime.internal.store.AnswerLogLimits;
import io.idempotent.runtime.internal.store.JdbcOperationStore;
import io.idempotent.runtime.internal.store.OperationStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import javax.sql.DataSource;

/** Opens operation stores on a JDBC URL (with a connection pool) or on a caller's data source. */
public final class DataSources {

    /** How messages name a store on the application's data source before its database is known. */
    private static final String APPLICATION_DATA_SOURCE = "store \"%s\" (the application's data source)";

    /**
     * Connections of a store's pool kept for lease renewals, beside {@code store.pool.size}: a
     * renewal is one statement for up to 256 attempts, and a second connection lets the others go
     * on while one hangs on a dead server.
     */
    static final int LEASE_CONNECTIONS = 2;

    private DataSources() {
    }

    /**
     * A store on a pooled connection to {@code settings.url()}; for an H2 file that several JVMs
     * share ({@code AUTO_SERVER}), every operation answers within the store's timeouts
     * ({@link BoundedOperationStore}) and H2's errors about the file are told by who holds it
     * ({@link H2FileCheck}).
     */
    public static OperationStore open(StoreSettings settings) {
        Dialect dialect = Dialect.detect(settings.url());
        if (dialect == null) {
            throw new StoreConfigurationException(null, null, "store " + settings.name() + ": unsupported JDBC URL "
                    + settings.safeUrl() + "; supported are jdbc:postgresql: and jdbc:h2:");
        }
        requireDriver(settings, dialect);
        if (dialect.name().equals("postgresql") && UrlCredentials.hasUserInfo(settings.url())) {
            // The driver would read user:password@ as part of the host name, and quote it in its messages.
            throw new StoreConfigurationException(null, null, "store " + settings.name() + ": the URL "
                    + settings.safeUrl() + " carries a user and password before the host, which the PostgreSQL"
                    + " driver does not read (it takes them for part of the host name)", "Give them as store.user"
                    + " and store.password (IDEMPOTENT_STORE_USER, IDEMPOTENT_STORE_PASSWORD), not in the URL", null);
        }
        HikariConfig config = new HikariConfig();
        config.setPoolName("idempotent-" + settings.name());
        String url = closedByTheRuntime(durable(settings.url()));
        // Unpooled connections: the pool's, and the store's first one, which reports a refusal at once.
        DataSource direct;
        H2FileDataSource h2Direct = null;
        Path h2File = isH2File(url) ? StoreSettings.h2File(url) : null;
        H2StoreFiles files = h2File == null ? null : H2StoreFiles.secure(settings.name(), h2File);
        // H2 closes an AUTO_SERVER file in its own shutdown hook (closedByTheRuntime cannot take
        // that from it): an answer still queued at exit would be lost, so each is written at once.
        boolean closedByH2 = isH2File(url) && H2AutoServer.shares(url);
        if (closedByH2) {
            H2AutoServer.keepOnLoopback(settings.name()); // before the store's first use of H2
        }
        if (isH2File(url)) {
            String urlUser = H2StoreSecret.urlSetting(url, "USER");
            String user = urlUser != null ? urlUser : settings.user() == null ? "sa" : settings.user();
            // Only a password really given keeps the secret away: a user alone would get an empty password.
            Path secretFile = settings.password() == null && !H2StoreSecret.urlHasPassword(url)
                    ? H2StoreSecret.fileFor(url) : null;
            // A password in the URL is H2's to read: given again as the connection's, H2 refuses it as a duplicate.
            String password = secretFile != null
                    ? H2StoreSecret.readOrCreate(settings.name(), secretFile, settings.connectTimeout())
                    : settings.password() != null ? settings.password()
                    : H2StoreSecret.urlHasPassword(url) ? null : "";
            h2Direct = new H2FileDataSource(url, user, password, settings.connectTimeout(), secretFile, h2File);
            direct = h2Direct;
        } else {
            direct = driverDataSource(settings, url);
        }
        direct = new UrlMaskingDataSource(direct, url);
        if (files != null) {
            direct = files.restrictingNewFiles(direct);
        }
        config.setDataSource(direct);
        config.setMaximumPoolSize(settings.poolSize());
        config.setMinimumIdle(0);
        config.setAutoCommit(true);
        // Hikari learns the isolation level from the first connection it sets up unless it is
        // told one. When that connection dies at that moment, Hikari records -1 and sets it on
        // every later connection, which the drivers refuse: the store would stay unavailable for
        // the life of the JVM though the database is back (brettwooldridge/HikariCP#1944). READ
        // COMMITTED is the default of both databases and what every statement of the store is
        // written for.
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        // A connection to a server that became read-only (a failover) is dropped, not kept refusing.
        config.setExceptionOverrideClassName(ReadOnlyConnectionEviction.class.getName());
        // An H2 file may spend the whole timeout being handed over; the pool waits a little longer.
        config.setConnectionTimeout(Math.max(250, settings.connectTimeout().toMillis()) + (isH2File(url) ? 1000 : 0));
        // Start even when the database is down: every claim then fails closed with a clear
        // StoreUnavailableException instead of the application failing to start.
        config.setInitializationFailTimeout(-1);
        // The lease renewals' own connections: a pool whose every connection a claim holds cannot delay them.
        HikariConfig leaseConfig = new HikariConfig();
        config.copyStateTo(leaseConfig);
        leaseConfig.setPoolName(config.getPoolName() + "-leases");
        leaseConfig.setMaximumPoolSize(LEASE_CONNECTIONS);
        HikariDataSource pool = new HikariDataSource(config);
        HikariDataSource leasePool = new HikariDataSource(leaseConfig);
        DataSource pooled = pool;
        DataSource leases = leasePool;
        if (h2File != null) {
            H2FileWatch watch = new H2FileWatch(Path.of(h2File + ".mv.db"));
            pooled = watch.guard(pool);
            leases = watch.guard(leasePool);
            direct = watch.guard(direct);
        }
        if (closedByH2) {
            pooled = BoundedOperationStore.marking(pooled);
            leases = BoundedOperationStore.marking(leases);
            direct = BoundedOperationStore.marking(direct);
        }
        AnswerLogLimits answerLog = closedByH2 ? settings.answerLog().writtenAtOnce() : settings.answerLog();
        if (h2File != null) {
            // No replays from memory on an embedded file: reading it in-process costs about what the
            // cache saves, and a file deleted or replaced under the JVM must refuse every call
            // (H2FileWatch, on each connection), a completed key's repeat included.
            answerLog = answerLog.withReplayCache(0);
        }
        JdbcOperationStore store = new JdbcOperationStore(settings.name(), settings.safeUrl(), pooled, direct, dialect,
                settings.schema(), pool, answerLog).leaseConnections(leases, leasePool);
        if (dialect.name().equals("postgresql") && !settings.url().toLowerCase(java.util.Locale.ROOT)
                .contains("preparethreshold=")) {
            // Behind a transaction pooler found at start, unnamed statements; elsewhere the driver's named ones.
            store.chooseStatementsBehindAPooler();
        }
        H2FileCheck check = h2Direct == null ? null : h2Direct.check();
        if (check == null) {
            return store;
        }
        store.explainingFailuresWith(check);
        return closedByH2 ? new BoundedOperationStore(store, settings.name(), settings.connectTimeout(),
                settings.socketTimeout(), check, settings.poolSize()) : store;
    }

    /**
     * An H2 database keeps recent commits in memory for up to half a second by default, so a
     * JVM (or an H2 server) that dies right after a claim would lose it and the next caller would
     * run the body again. {@code WRITE_DELAY=0} writes every commit to the file before it returns
     * (the operating system then has it, which survives the process; a power loss is another
     * matter). This holds for a file database and for one reached through an H2 server
     * ({@code jdbc:h2:tcp:}, {@code jdbc:h2:ssl:}), where the setting applies to the server's
     * database and needs an admin user. A URL that sets {@code WRITE_DELAY} itself is left alone.
     */
    static String durable(String url) {
        boolean server = url.startsWith("jdbc:h2:tcp:") || url.startsWith("jdbc:h2:ssl:");
        if (!(isH2File(url) || server) || url.toUpperCase(java.util.Locale.ROOT).contains("WRITE_DELAY")) {
            return url;
        }
        return url + ";WRITE_DELAY=0";
    }

    /**
     * H2 closes an embedded database in a JVM shutdown hook of its own, which runs beside the
     * hook that closes the agent's runtime: the answers that runtime still had to write would
     * meet a closed database. {@code DB_CLOSE_ON_EXIT=FALSE} leaves the closing to the runtime's
     * pool (H2 closes the database with its last connection). H2 refuses it beside
     * {@code AUTO_SERVER=TRUE} (the embedded default), whose file stays H2's to close: there the
     * store writes each answer before its call returns ({@code AnswerLogLimits#writtenAtOnce}).
     * A URL that sets it itself is left alone.
     */
    static String closedByTheRuntime(String url) {
        String upper = url.toUpperCase(java.util.Locale.ROOT);
        if (!isH2File(url) || upper.contains("DB_CLOSE_ON_EXIT") || upper.contains("AUTO_SERVER=TRUE")) {
            return url;
        }
        return url + ";DB_CLOSE_ON_EXIT=FALSE";
    }

    /** An H2 database in a file (embedded or AUTO_SERVER), not in memory. */
    public static boolean isH2File(String url) {
        return url.startsWith("jdbc:h2:") && !url.startsWith("jdbc:h2:mem:") && !url.startsWith("jdbc:h2:tcp:")
                && !url.startsWith("jdbc:h2:ssl:");
    }

    /**
     * A store on the caller's data source (the caller closes it). Its connections are used in
     * auto-commit mode and never join the caller's transactions: see {@link AutoCommitDataSource}.
     */
    public static JdbcOperationStore wrap(String name, DataSource application, SchemaMode schema) {
        return wrap(name, application, schema, AnswerLogLimits.DEFAULT_REPLAY_CACHE);
    }

    /** As {@link #wrap(String, DataSource, SchemaMode)}, answering repeats of up to {@code replayCache} completed operations from memory. */
    public static JdbcOperationStore wrap(String name, DataSource application, SchemaMode schema, int replayCache) {
        DataSource dataSource = AutoCommitDataSource.of(name, application);
        Dialect dialect;
        try (Connection c = dataSource.getConnection()) {
            dialect = Dialect.detect(c.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            throw JdbcOperationStore.failure(APPLICATION_DATA_SOURCE.formatted(name), "connect to detect the database of",
                    e);
        }
        if (dialect == null) {
            throw new StoreConfigurationException(null, null, "store " + name + ": unsupported database; supported"
                    + " are PostgreSQL and H2");
        }
        // A transactional tool call joins the Spring transactions of the data source beneath the store's view.
        return new JdbcOperationStore(name, "the application's data source", dataSource, dataSource, dialect, schema,
                null, AnswerLogLimits.DEFAULT.withReplayCache(replayCache))
                .onApplicationDataSource(((ConnectionDecoratingDataSource) dataSource).target());
    }

    /**
     * The driver's connection properties that bound a statement to a silent server. PostgreSQL:
     * {@code socketTimeout} ({@code store.socket.timeout} in whole seconds, rounded up, since the
     * driver reads 0 as "wait for ever") makes a statement, and the log-in of a new connection,
     * whose reply does not come in time fail with a lost connection (SQLState 08006), which the
     * store reports as {@code StoreUnavailableException}; {@code tcpKeepAlive} lets the kernel
     * find a dead peer of an idle connection. Parameters of the same name in the URL win (the
     * driver reads the URL last). Nothing for H2, whose embedded store has no socket. The driver's
     * {@code prepareThreshold} is left to it: the store lowers it to 0 itself when it finds a
     * transaction pooler at start ({@link JdbcOperationStore#chooseStatementsBehindAPooler}).
     */
    static Properties driverProperties(StoreSettings settings) {
        Properties properties = new Properties();
        if (settings.url().startsWith("jdbc:postgresql:")) {
            long millis = settings.socketTimeout().toMillis();
            long seconds = Math.max(1, (millis + 999) / 1000);
            properties.setProperty("socketTimeout", Long.toString(Math.min(seconds, Integer.MAX_VALUE)));
            properties.setProperty("tcpKeepAlive", "true");
        }
        return properties;
    }

    /** HikariCP's data source on the driver; its refusal of the URL quotes it, so it is said here without. */
    private static DataSource driverDataSource(StoreSettings settings, String url) {
        try {
            return new DriverDataSource(url, null, driverProperties(settings), settings.user(), settings.password());
        } catch (RuntimeException e) {
            throw new StoreConfigurationException(null, null, "store " + settings.name() + ": the JDBC driver does"
                    + " not accept the URL " + settings.safeUrl(), "Correct store.url to the form the driver's"
                    + " documentation gives (host, port and database), with the user and password in store.user and"
                    + " store.password", null);
        }
    }

    private static void requireDriver(StoreSettings settings, Dialect dialect) {
        String driver = dialect.name().equals("postgresql") ? "org.postgresql.Driver" : "org.h2.Driver";
        String artifact = dialect.name().equals("postgresql") ? "org.postgresql:postgresql" : "com.h2database:h2";
        try {
            Class.forName(driver, false, DataSources.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new StoreConfigurationException(null, null, "store " + settings.name() + " (" + settings.safeUrl()
                    + ") needs the JDBC driver " + driver + ": add " + artifact + " to the application", e);
        }
    }
}
