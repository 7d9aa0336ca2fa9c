package io.idempotent.runtime.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.testing.Database;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.TestDatabase;
import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A completion with outbox messages on a connection that is already in a transaction (a
 * transactional tool's: the store's statements on the call's thread use the call's connection)
 * writes the completion and the rows in that transaction and never commits it: they commit or
 * roll back with it.
 */
class CompletionInATransactionTest {

    private static final Duration LEASE = Duration.ofMinutes(5);

    @OnBothDatabases
    void theCompletionAndItsOutboxRowsRollBackWithTheCallersTransaction(TestDatabase db) throws Exception {
        assertThat(completeInsideATransaction(db, "k-rolled-back", false)).isZero();
        assertThat(db.status("k-rolled-back")).isEqualTo("in_progress");
        assertThat(db.queryLong("SELECT count(*) FROM tool_operation_outbox")).isZero();
    }

    @OnBothDatabases
    void theCompletionAndItsOutboxRowsCommitWithTheCallersTransaction(TestDatabase db) throws Exception {
        assertThat(completeInsideATransaction(db, "k-committed", true)).isEqualTo(2);
        assertThat(db.status("k-committed")).isEqualTo("completed");
        assertThat(db.queryLong("SELECT count(*) FROM tool_operation_outbox WHERE operation_key = 'k-committed'"))
                .isEqualTo(2);
    }

    /**
     * Claims {@code key} through an ordinary store, then completes it with two messages through a
     * store whose every connection is one connection in an open transaction, which the test then
     * commits or rolls back; returns how many outbox rows that transaction saw before it ended.
     */
    private static long completeInsideATransaction(TestDatabase db, String key, boolean commit) throws Exception {
        Dialect dialect = Dialect.detect(db.kind() == Database.H2 ? "h2" : "postgresql");
        DataSource plain = dataSource(db::connect);
        JdbcOperationStore ordinary = new JdbcOperationStore("default", plain, dialect, SchemaMode.CREATE, null);
        ordinary.claim(new ClaimRequest("a-1", key, "notify", "h", "{}", LEASE, Duration.ofDays(1), true));
        ordinary.close();

        try (Connection call = db.connect()) {
            call.setAutoCommit(false);
            JdbcOperationStore bound = new JdbcOperationStore("default", dataSource(() -> unclosable(call)), dialect,
                    SchemaMode.VALIDATE, null);
            Transition completed = bound.complete("notify", key, 1, "a-1", "\"ok\"", new AttemptEnd(null, null,
                    List.of(new OutboxMessageDraft("mail", "{}"), new OutboxMessageDraft("audit", "{}"))));
            assertThat(completed.applied()).isTrue();
            assertThat(call.getAutoCommit()).as("the caller's transaction is still open").isFalse();
            long seen;
            try (var st = call.createStatement(); var rs = st.executeQuery(
                    "SELECT count(*) FROM tool_operation_outbox WHERE operation_key = '" + key + "'")) {
                rs.next();
                seen = rs.getLong(1);
            }
            if (commit) {
                call.commit();
            } else {
                call.rollback();
            }
            return commit ? seen : db.queryLong("SELECT count(*) FROM tool_operation_outbox");
        }
    }

    private interface Source {
        Connection get() throws java.sql.SQLException;
    }

    /** {@code c}, whose close does nothing (the test ends its transaction and closes it). */
    private static Connection unclosable(Connection c) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        return null;
                    }
                    try {
                        return method.invoke(c, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static DataSource dataSource(Source source) {
        return new DataSource() {
            @Override
            public Connection getConnection() throws java.sql.SQLException {
                return source.get();
            }

            @Override
            public Connection getConnection(String user, String password) throws java.sql.SQLException {
                return source.get();
            }

            @Override
            public PrintWriter getLogWriter() {
                return null;
            }

            @Override
            public void setLogWriter(PrintWriter out) {
            }

            @Override
            public void setLoginTimeout(int seconds) {
            }

            @Override
            public int getLoginTimeout() {
                return 0;
            }

            @Override
            public Logger getParentLogger() {
                return Logger.getGlobal();
            }

            @Override
            public <T> T unwrap(Class<T> iface) {
                throw new UnsupportedOperationException();
            }

            @Override
            public boolean isWrapperFor(Class<?> iface) {
                return false;
            }
        };
    }
}
