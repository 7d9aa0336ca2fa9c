package io.idempotent.benchmarks.store;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Counts the round trips that go through a data source, per calling thread: every executed
 * statement ({@code execute*}) and every {@code commit} or {@code rollback}. It wraps the pool, so
 * the pool's own validation queries are not counted. Used by the race benchmark (statements per
 * loser) and by the throughput benchmark's count of statements per call; never in a timed run.
 */
final class StatementCountingDataSource implements DataSource {

    private final DataSource real;
    private final Map<Thread, LongAdder> statements = new ConcurrentHashMap<>();
    private final Map<Thread, LongAdder> commits = new ConcurrentHashMap<>();

    StatementCountingDataSource(DataSource real) {
        this.real = real;
    }

    /** Statements executed so far on {@code thread}. */
    long statements(Thread thread) {
        LongAdder n = statements.get(thread);
        return n == null ? 0 : n.sum();
    }

    /** Statements and commits so far on every thread (the caller's and the library's own). */
    long allRoundTrips() {
        return statements.values().stream().mapToLong(LongAdder::sum).sum()
                + commits.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** Commits and rollbacks so far on {@code thread}. */
    long commits(Thread thread) {
        LongAdder n = commits.get(thread);
        return n == null ? 0 : n.sum();
    }

    private static void count(Map<Thread, LongAdder> counts) {
        counts.computeIfAbsent(Thread.currentThread(), t -> new LongAdder()).increment();
    }

    @Override
    public Connection getConnection() throws SQLException {
        return wrap(real.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return wrap(real.getConnection(username, password));
    }

    private Connection wrap(Connection connection) {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    String name = method.getName();
                    if (name.equals("commit") || name.equals("rollback")) {
                        count(commits);
                    }
                    Object result = invoke(connection, method, args);
                    Class<?> type = method.getReturnType();
                    if (type == Statement.class || type == PreparedStatement.class || type == CallableStatement.class) {
                        return wrapStatement(result, type);
                    }
                    return result;
                });
    }

    private Object wrapStatement(Object statement, Class<?> type) {
        return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            if (method.getName().startsWith("execute")) {
                count(statements);
            }
            return invoke(statement, method, args);
        });
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return real.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        real.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        real.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return real.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() {
        return Logger.getLogger(Logger.GLOBAL_LOGGER_NAME);
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return false;
    }
}
