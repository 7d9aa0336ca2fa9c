package io.idempotent.runtime.testing;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.concurrent.atomic.AtomicInteger;

/** A real data source (DriverManager) that counts the statements prepared on its connections. */
public final class CountingDataSource extends ConnectionWrappingDataSource {

    private final AtomicInteger statements = new AtomicInteger();

    /** Connects to {@code db}. */
    public CountingDataSource(TestDatabase db) {
        super(db);
    }

    /** Statements prepared so far (each is executed once: one round trip). */
    public int statements() {
        return statements.get();
    }

    @Override
    Connection wrap(Connection real) {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("prepareStatement") || method.getName().equals("createStatement")) {
                        statements.incrementAndGet();
                    }
                    return invoke(real, method, args);
                });
    }
}
