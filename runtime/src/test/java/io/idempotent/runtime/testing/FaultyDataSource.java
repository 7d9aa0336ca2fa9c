package io.idempotent.runtime.testing;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real data source (DriverManager connections to the test database) that breaks the connection
 * under chosen statements, the way a restarted server or a dropped network does: either before
 * the statement reaches the database, or after the database executed and committed it, so only
 * the reply is lost. It can also stall chosen statements (a hung network or a locked row) until
 * the test releases them.
 */
public final class FaultyDataSource extends ConnectionWrappingDataSource {

    /** Where the injected failure strikes. */
    public enum Strike {
        /** The statement never reaches the database. */
        BEFORE_EXECUTING,
        /** The database executes and commits the statement; its reply is lost. */
        AFTER_COMMITTING,
        /**
         * The statement never reaches the database: an embedded H2 store shared by several JVMs is
         * changing hands, and H2 answers with its "error opening database" (8000).
         */
        H2_HANDOVER
    }

    private final AtomicReference<String> sqlFragment = new AtomicReference<>();
    private final AtomicInteger remaining = new AtomicInteger();
    private final AtomicInteger injected = new AtomicInteger();
    private volatile Strike strike = Strike.BEFORE_EXECUTING;
    private final AtomicReference<String> stallFragment = new AtomicReference<>();
    private final AtomicInteger stallsLeft = new AtomicInteger();
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger stalledNow = new AtomicInteger();
    private final AtomicInteger commitsToBreak = new AtomicInteger();

    /** Connects to {@code db}. */
    public FaultyDataSource(TestDatabase db) {
        super(db);
    }

    /** Breaks the next {@code times} statements whose SQL contains {@code fragment}. */
    public void breakUpdates(String fragment, int times, Strike where) {
        strike = where;
        remaining.set(times);
        sqlFragment.set(fragment);
    }

    /**
     * Breaks the next {@code times} commits of a transaction after the database committed it:
     * the reply of the commit is lost.
     */
    public void breakCommits(int times) {
        commitsToBreak.set(times);
    }

    /**
     * Holds the next {@code times} statements whose SQL contains {@code fragment} before they reach
     * the database, until {@link #releaseStalled()}.
     */
    public void stallStatements(String fragment, int times) {
        stallsLeft.set(times);
        stallFragment.set(fragment);
    }

    /** Lets every stalled statement (and every later one) go on. */
    public void releaseStalled() {
        stallFragment.set(null);
        release.countDown();
    }

    /** How many statements are held right now. */
    public int stalledNow() {
        return stalledNow.get();
    }

    /** How many failures were injected so far. */
    public int injected() {
        return injected.get();
    }

    @Override
    Connection wrap(Connection real) {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("commit")
                            && commitsToBreak.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        real.commit();
                        injected.incrementAndGet();
                        real.close();
                        throw new SQLTransientConnectionException("injected: connection reset after commit", "08006");
                    }
                    Object result = invoke(real, method, args);
                    if (method.getName().equals("prepareStatement") && args != null && args[0] instanceof String sql) {
                        return statement((PreparedStatement) result, PreparedStatement.class, sql);
                    }
                    if (method.getName().equals("createStatement")) {
                        return statement((Statement) result, Statement.class, null);
                    }
                    return result;
                });
    }

    /** A statement whose executions may break; {@code preparedSql} is null for a plain statement. */
    private <S extends Statement> S statement(S real, Class<S> type, String preparedSql) {
        return type.cast(Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> {
                    String sql = preparedSql != null ? preparedSql
                            : args != null && args.length > 0 && args[0] instanceof String s ? s : "";
                    // A change that returns its row runs as a query (RETURNING, FINAL TABLE).
                    boolean executes = method.getName().equals("executeUpdate")
                            || method.getName().equals("executeQuery") || method.getName().equals("execute")
                            || method.getName().equals("executeBatch");
                    if (executes && stalls(sql)) {
                        stalledNow.incrementAndGet();
                        try {
                            if (!release.await(60, TimeUnit.SECONDS)) {
                                throw new AssertionError("a stalled statement was never released");
                            }
                        } finally {
                            stalledNow.decrementAndGet();
                        }
                    }
                    if (!executes || !strikes(sql)) {
                        return invoke(real, method, args);
                    }
                    if (strike == Strike.AFTER_COMMITTING) {
                        invoke(real, method, args);
                    }
                    injected.incrementAndGet();
                    real.getConnection().close();
                    if (strike == Strike.H2_HANDOVER) {
                        throw new SQLException("injected: Error opening database: \"Lock file recently modified\"",
                                "08000", 8000);
                    }
                    throw new SQLTransientConnectionException("injected: connection reset", "08006");
                }));
    }

    private boolean stalls(String sql) {
        String fragment = stallFragment.get();
        return fragment != null && sql.contains(fragment) && stallsLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }

    private boolean strikes(String sql) {
        String fragment = sqlFragment.get();
        return fragment != null && sql.contains(fragment) && remaining.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }
}
