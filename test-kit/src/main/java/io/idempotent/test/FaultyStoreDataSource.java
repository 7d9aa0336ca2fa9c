package io.idempotent.test;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The case's store connection, able to break the next statements run on one thread the way a
 * dropped network does: before the statement reaches the database, or after the database ran and
 * committed it. The kit arms it on the caller's thread when the tool's body returns, so what
 * breaks is the completion write, whatever SQL the store uses for it.
 */
final class FaultyStoreDataSource implements DataSource {

    /** Where the failure strikes. */
    enum Strike {
        BEFORE_EXECUTING,
        AFTER_COMMITTING
    }

    private static final Set<String> EXECUTIONS = Set.of("execute", "executeQuery", "executeUpdate",
            "executeLargeUpdate", "executeBatch", "executeLargeBatch");

    private final DataSource real;
    private final AtomicInteger injected = new AtomicInteger();
    private volatile Thread armedThread;
    private volatile int remaining;
    private volatile Strike strike = Strike.BEFORE_EXECUTING;

    FaultyStoreDataSource(DataSource real) {
        this.real = real;
    }

    /** Breaks the next {@code times} statements that the current thread runs. */
    void breakOnThisThread(int times, Strike where) {
        strike = where;
        remaining = times;
        armedThread = Thread.currentThread();
    }

    void heal() {
        armedThread = null;
        remaining = 0;
    }

    int injected() {
        return injected.get();
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
        if (armedThread != Thread.currentThread() || remaining <= 0) {
            return false;
        }
        remaining--;
        return true;
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
        return Logger.getLogger("io.idempotent.test");
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
