package io.idempotent.benchmarks.store;

import io.idempotent.runtime.internal.ConnectionDecoratingDataSource;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;

/**
 * Counts the round trips that go through a data source, per calling thread: every executed
 * statement ({@code execute*}) and every {@code commit} or {@code rollback}. It wraps the pool, so
 * the pool's own validation queries are not counted. Used by the race benchmark (statements per
 * loser) and by the throughput benchmark's count of statements per call; never in a timed run.
 */
final class StatementCountingDataSource extends ConnectionDecoratingDataSource {

    private final Map<Thread, LongAdder> statements = new ConcurrentHashMap<>();
    private final Map<Thread, LongAdder> commits = new ConcurrentHashMap<>();

    StatementCountingDataSource(DataSource real) {
        super(real);
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

    /** Statements executed so far on the threads whose name starts with {@code prefix}. */
    long statementsOnThreadsNamed(String prefix) {
        return statements.entrySet().stream().filter(e -> e.getKey().getName().startsWith(prefix))
                .mapToLong(e -> e.getValue().sum()).sum();
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
    protected Connection decorate(Connection connection) {
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
}
