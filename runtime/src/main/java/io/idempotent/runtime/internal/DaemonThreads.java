package io.idempotent.runtime.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The runtime's own threads (reconcilers, lease heartbeats, asynchronous calls): daemons, so that
 * they never keep an application's JVM alive, named {@code name-N} so that a thread dump says
 * whose they are.
 */
final class DaemonThreads {

    private DaemonThreads() {
    }

    /** A factory of daemon threads named {@code name-1}, {@code name-2} ... */
    static ThreadFactory named(String name) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
