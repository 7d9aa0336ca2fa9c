package io.idempotent.runtime.testing;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real data source (DriverManager connections to the test database) that runs a test's action
 * once, right after the first statement whose SQL contains a chosen fragment has executed: a
 * deterministic way to let time pass, or another writer act, between two statements of the store.
 */
public final class StatementHookDataSource extends ConnectionWrappingDataSource {

    private record Hook(String fragment, Runnable action) {
    }

    private final AtomicReference<Hook> hook = new AtomicReference<>();

    /** Connects to {@code db}. */
    public StatementHookDataSource(TestDatabase db) {
        super(db);
    }

    /** Runs {@code action} once, after the next statement whose SQL contains {@code fragment}. */
    public void afterStatement(String fragment, Runnable action) {
        hook.set(new Hook(fragment, action));
    }

    @Override
    Connection wrap(Connection real) {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
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

    private <S extends Statement> S statement(S real, Class<S> type, String preparedSql) {
        return type.cast(Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> {
                    Object result = invoke(real, method, args);
                    String sql = preparedSql != null ? preparedSql
                            : args != null && args.length > 0 && args[0] instanceof String s ? s : null;
                    if (method.getName().startsWith("execute") && sql != null) {
                        Hook h = hook.get();
                        if (h != null && sql.contains(h.fragment()) && hook.compareAndSet(h, null)) {
                            h.action().run();
                        }
                    }
                    return result;
                }));
    }
}
