package io.idempotent.runtime.internal.store;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.IdentityHashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The connection that a transactional tool call holds on the current thread, per store pool:
 * while it is bound, every statement the store runs on this thread (the claim, a take-over, the
 * completion, a failure, a re-read) runs on it, inside the call's transaction. The store's code
 * is unchanged by it: its {@code close()}, {@code commit()}, {@code rollback()} and
 * {@code setAutoCommit(...)} do nothing on the bound connection, because the transaction belongs
 * to the tool call, which ends it.
 */
final class BoundConnections {

    private static final ThreadLocal<Map<DataSource, Connection>> BOUND = ThreadLocal.withInitial(IdentityHashMap::new);

    private BoundConnections() {
    }

    /** The connection bound for {@code pool} on this thread, as the store uses it; null when none is. */
    static Connection on(DataSource pool) {
        Map<DataSource, Connection> bound = BOUND.get();
        return bound.isEmpty() ? null : bound.get(pool);
    }

    /**
     * Binds {@code connection} for {@code pool} on this thread until the returned handle is
     * closed.
     *
     * @throws IllegalStateException when one is bound already (a transactional tool called from
     *     the body of another on the same store joins nothing: it is refused)
     */
    static AutoCloseable bind(DataSource pool, Connection connection) {
        Map<DataSource, Connection> bound = BOUND.get();
        if (bound.containsKey(pool)) {
            throw new IllegalStateException("a transactional tool call is already running on this thread on the"
                    + " same store");
        }
        bound.put(pool, ownedByTheCall(connection));
        return () -> BOUND.get().remove(pool);
    }

    private static Connection ownedByTheCall(Connection connection) {
        return (Connection) Proxy.newProxyInstance(BoundConnections.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "close", "commit", "setAutoCommit" -> {
                            return null;
                        }
                        case "rollback" -> {
                            if (method.getParameterCount() == 0) {
                                return null;
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
}
