package io.idempotent.test;

import io.idempotent.runtime.internal.ConnectionDecoratingDataSource;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * The case's store connection, able to break the next statements run on some threads the way a
 * dropped network does: before the statement reaches the database, or after the database ran and
 * committed it. The kit arms it when the tool's body returns, for the thread that records the
 * outcome (the caller's, or the runtime's executor for an asynchronous tool), so what breaks is the
 * completion write, whatever SQL the store uses for it.
 */
final class FaultyStoreDataSource extends ConnectionDecoratingDataSource {

    /** Where the failure strikes. */
    enum Strike {
        BEFORE_EXECUTING,
        AFTER_COMMITTING
    }

    private static final Set<String> EXECUTIONS = Set.of("execute", "executeQuery", "executeUpdate",
            "executeLargeUpdate", "executeBatch", "executeLargeBatch");

    private final AtomicInteger injected = new AtomicInteger();
    private volatile Predicate<Thread> armedThreads;
    private volatile int remaining;
    private volatile Strike strike = Strike.BEFORE_EXECUTING;

    FaultyStoreDataSource(DataSource real) {
        super(real);
    }

    /**
     * Breaks the next {@code times} statements that a thread of {@code threads} runs: the caller's
     * own for a synchronous tool, the runtime's executor for an asynchronous one.
     */
    void breakOn(Predicate<Thread> threads, int times, Strike where) {
        strike = where;
        remaining = times;
        armedThreads = threads;
    }

    void heal() {
        armedThreads = null;
        remaining = 0;
    }

    int injected() {
        return injected.get();
    }

    @Override
    protected Connection decorate(Connection connection) {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    Object result = invoke(connection, method, args);
                    if (result instanceof Statement statement) {
                        return statement(connection, statement);
                    }
                    return result;
                });
    }

    private Statement statement(Connection connection, Statement statement) {
        Class<?> type = statement instanceof CallableStatement ? CallableStatement.class
                : statement instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
        return (Statement) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> {
                    if (!EXECUTIONS.contains(method.getName()) || !strikes()) {
                        return invoke(statement, method, args);
                    }
                    if (strike == Strike.AFTER_COMMITTING) {
                        invoke(statement, method, args);
                        if (!connection.getAutoCommit()) {
                            connection.commit();
                        }
                    }
                    injected.incrementAndGet();
                    connection.close();
                    throw new SQLTransientConnectionException("connection reset (injected by the contract test kit)",
                            "08006");
                });
    }

    private synchronized boolean strikes() {
        Predicate<Thread> threads = armedThreads;
        if (threads == null || !threads.test(Thread.currentThread()) || remaining <= 0) {
            return false;
        }
        remaining--;
        return true;
    }
}
