package io.idempotent.runtime.testing;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** A real data source (DriverManager) that counts the statements prepared on its connections. */
public final class CountingDataSource extends ConnectionWrappingDataSource {

    private final AtomicInteger statements = new AtomicInteger();
    private final Map<Thread, AtomicInteger> byThread = new ConcurrentHashMap<>();

    /** Connects to {@code db}. */
    public CountingDataSource(TestDatabase db) {
        super(db);
    }

    /** Statements prepared so far (each is executed once: one round trip). */
    public int statements() {
        return statements.get();
    }

    /** Statements prepared so far on the calling thread. */
    public int statementsOnThisThread() {
        return byThread.computeIfAbsent(Thread.currentThread(), t -> new AtomicInteger()).get();
    }

    /** Statements prepared so far on threads other than {@code callers} (the store's own threads). */
    public int statementsOutside(Set<Thread> callers) {
        return byThread.entrySet().stream().filter(e -> !callers.contains(e.getKey()))
                .mapToInt(e -> e.getValue().get()).sum();
    }

    @Override
    Connection wrap(Connection real) {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("prepareStatement") || method.getName().equals("createStatement")) {
                        statements.incrementAndGet();
                        byThread.computeIfAbsent(Thread.currentThread(), t -> new AtomicInteger()).incrementAndGet();
                    }
                    return invoke(real, method, args);
                });
    }
}
