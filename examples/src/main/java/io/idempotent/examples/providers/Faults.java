package io.idempotent.examples.providers;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The failures the demo injects into the network between the tools and the providers: a reply
 * lost after the provider committed, a provider so slow that the caller times out, a worker that
 * dies right after the provider committed.
 */
public final class Faults {

    /** What happens to the next request to a provider, after it committed. */
    public enum Fault {
        /** The provider commits; its reply never arrives. */
        LOSE_REPLY,
        /** The provider commits; the worker process dies before it sees the reply. */
        HALT_WORKER
    }

    private final AtomicReference<String> nextFaultProvider = new AtomicReference<>();
    private volatile Fault nextFault;
    private final AtomicReference<CountDownLatch> slowUntil = new AtomicReference<>();

    /** Injects {@code fault} into the next request that {@code provider} commits. */
    public void next(String provider, Fault fault) {
        nextFault = fault;
        nextFaultProvider.set(provider);
    }

    /** Makes the next request to a provider wait (before it answers) until {@code release} opens. */
    public void slowDownNextRequest(CountDownLatch release) {
        slowUntil.set(release);
    }

    /** Called by a provider after it committed a request. */
    void afterCommit(String provider) {
        CountDownLatch slow = slowUntil.getAndSet(null);
        if (slow != null) {
            try {
                if (!slow.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the slow request was never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        if (nextFaultProvider.compareAndSet(provider, null)) {
            Fault fault = nextFault;
            if (fault == Fault.HALT_WORKER) {
                System.out.println("worker: " + provider + " committed; the worker dies now (Runtime.halt)");
                System.out.flush();
                Runtime.getRuntime().halt(3);
            }
            throw new ReplyLostException(provider + " committed the request, but its reply was lost (read timed out)");
        }
    }

    /** The transport failure a caller sees when a reply is lost: it cannot tell whether the request committed. */
    public static final class ReplyLostException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ReplyLostException(String message) {
            super(message);
        }
    }
}
