package io.idempotent.runtime.testing;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real data source whose connections come with auto-commit off, as many applications
 * configure their pools, and that does not reset them when they are handed back (unlike HikariCP),
 * so the test sees the state the store returned each connection in.
 */
public final class NoAutoCommitDataSource extends ConnectionWrappingDataSource {

    private final List<Boolean> autoCommitAtClose = new CopyOnWriteArrayList<>();

    /** Connects to {@code db}. */
    public NoAutoCommitDataSource(TestDatabase db) {
        super(db);
    }

    /** The auto-commit setting of each connection when it was closed, in order. */
    public List<Boolean> autoCommitAtClose() {
        return List.copyOf(autoCommitAtClose);
    }

    @Override
    Connection wrap(Connection real) {
        try {
            real.setAutoCommit(false);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close") && !real.isClosed()) {
                        autoCommitAtClose.add(real.getAutoCommit());
                    }
                    return invoke(real, method, args);
                });
    }
}
