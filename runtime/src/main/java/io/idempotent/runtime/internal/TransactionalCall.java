package io.idempotent.runtime.internal;

import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.internal.store.StoreTransactions;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The one transaction of a transactional tool call: its claim, its body's writes and its
 * completion (or its failure) run on one connection, and commit or roll back together. Either
 * the call's own (a connection of the store, committed when the call ends) or, when the caller
 * runs in a Spring transaction on the store's data source, that transaction (the caller's commit
 * or rollback decides; the call only rolls back to its savepoints).
 */
final class TransactionalCall {

    private final StoreTransactions store;
    private final Connection connection;
    /** Null for the call's own transaction; the data source of the Spring transaction it joined. */
    private final DataSource joinedSpring;
    /** Joined: where the claim began, to undo the call without the caller's earlier work. */
    private final Savepoint beforeClaim;
    private final AutoCloseable binding;
    /** The call's own transaction as Spring's for the body, or null (joined, or no Spring). */
    private SpringTransactions.Exposed exposed;
    private Savepoint afterClaim;
    private boolean ended;

    private TransactionalCall(StoreTransactions store, Connection connection, DataSource joinedSpring,
            Savepoint beforeClaim) {
        this.store = store;
        this.connection = connection;
        this.joinedSpring = joinedSpring;
        this.beforeClaim = beforeClaim;
        // A transactional call in the body of another on the same store is refused here (no nesting).
        this.binding = store.bind(connection);
    }

    /** Opens the call's own transaction on a new connection of {@code store}. */
    static TransactionalCall own(StoreTransactions store) throws SQLException {
        Connection c = store.connection();
        TransactionalCall call;
        try {
            c.setAutoCommit(false);
            call = new TransactionalCall(store, c, null, null);
        } catch (SQLException | RuntimeException e) {
            closeQuietly(c, e);
            throw e;
        }
        DataSource application = store.application();
        try {
            if (application != null && SpringTransactions.PRESENT) {
                call.exposed = SpringTransactions.expose(application, c);
            }
        } catch (RuntimeException e) {
            call.undo(e);
            throw e;
        }
        return call;
    }

    /** Joins the Spring transaction whose connection on {@code dataSource} is {@code c}. */
    static TransactionalCall joined(StoreTransactions store, Connection c, DataSource dataSource) throws SQLException {
        try {
            return new TransactionalCall(store, c, dataSource, c.setSavepoint());
        } catch (SQLException | RuntimeException e) {
            SpringTransactions.release(c, dataSource);
            throw e;
        }
    }

    /** The claim is in place: a failure of the body from here undoes the body's writes only. */
    void claimed() throws SQLException {
        afterClaim = connection.setSavepoint();
    }

    /** The connection the body writes on: its transaction is the call's, which the body may not end. */
    Connection forTheBody() {
        return (Connection) Proxy.newProxyInstance(TransactionalCall.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "close" -> {
                            return null;
                        }
                        case "commit", "setAutoCommit" -> throw new SQLException("the transaction of a"
                                + " transactional tool belongs to the tool call, which commits it with the operation's"
                                + " record; " + method.getName() + " is not allowed in the body");
                        case "rollback" -> {
                            if (method.getParameterCount() == 0) {
                                throw new SQLException("the transaction of a transactional tool belongs to the"
                                        + " tool call; throw from the body to roll its writes back");
                            }
                        }
                        default -> {
                        }
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /**
     * Completes the call: {@code complete} writes the completion on the call's connection, then
     * the call's own transaction commits. Anything that fails undoes the whole call.
     */
    Object succeeded(Supplier<Object> complete) {
        Object result;
        try {
            result = complete.get();
            if (exposed != null && exposed.rollbackOnly()) {
                throw new IllegalStateException("Spring code in the body marked the tool's transaction"
                        + " rollback-only; nothing of the call was committed");
            }
        } catch (RuntimeException | Error e) {
            undo(e);
            throw e;
        }
        end(true);
        return result;
    }

    /**
     * The body failed: its writes are rolled back, then {@code record} writes the failure on the
     * call's connection (in the same transaction, so it commits with the caller's under Spring).
     */
    void failed(Throwable failure, Runnable record) {
        try {
            connection.rollback(afterClaim);
        } catch (SQLException e) {
            failure.addSuppressed(store.unavailable("roll back the writes of a failed transactional tool in", e));
            undo(failure);
            return;
        }
        try {
            record.run();
            end(true);
        } catch (RuntimeException | Error e) {
            failure.addSuppressed(e);
            undo(failure);
        }
    }

    /**
     * The call ends without a body (a replay, a refusal): what the state machine wrote commits,
     * as it would have on its own.
     */
    void endedWithoutBody(Throwable refusal) {
        try {
            end(true);
        } catch (RuntimeException e) {
            if (refusal != null) {
                refusal.addSuppressed(e);
            } else {
                throw e;
            }
        }
    }

    /** Undoes everything of the call (a dead worker in a test, a failed completion): nothing is committed. */
    void undo(Throwable cause) {
        if (ended) {
            return;
        }
        ended = true;
        try {
            if (joinedSpring != null) {
                connection.rollback(beforeClaim);
            } else {
                connection.rollback();
            }
        } catch (SQLException e) {
            if (cause != null) {
                cause.addSuppressed(e);
            }
        } finally {
            release(cause);
        }
    }

    private void end(boolean commit) {
        if (ended) {
            return;
        }
        ended = true;
        RuntimeException failed = null;
        try {
            if (joinedSpring == null && commit) {
                connection.commit();
            }
        } catch (SQLException e) {
            // Claim, writes and completion commit together or not at all: a repeat replays or runs once.
            failed = new StoreUnavailableException(null, null, store.described() + ": the transaction of a"
                    + " transactional tool could not be committed (" + e.getClass().getName() + ", SQLState "
                    + e.getSQLState() + "); its claim, writes and completion committed together or not at all, so"
                    + " the call may be repeated", e);
            try {
                connection.rollback();
            } catch (SQLException rollback) {
                failed.addSuppressed(rollback);
            }
        } finally {
            release(failed);
        }
        if (failed != null) {
            throw failed;
        }
    }

    private void release(Throwable cause) {
        try {
            binding.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        if (exposed != null) {
            exposed.close();
        }
        if (joinedSpring != null) {
            SpringTransactions.release(connection, joinedSpring);
            return;
        }
        try {
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            if (cause != null) {
                cause.addSuppressed(e);
            }
        }
        closeQuietly(connection, cause);
    }

    private static void closeQuietly(Connection c, Throwable cause) {
        try {
            c.close();
        } catch (SQLException e) {
            if (cause != null) {
                cause.addSuppressed(e);
            }
        }
    }
}
