package io.idempotent.runtime.internal;

import java.util.concurrent.Executor;

/**
 * The settings of the runtime's asynchronous tool calls ({@link AsyncToolCalls}).
 *
 * @param threads the runtime's own threads for the store work of asynchronous calls (claims,
 *     completions), at least 1; no application code ever runs on them
 * @param maxPending calls admitted and not yet recorded, at most, at least 1; the next one fails closed
 * @param bodies where bodies and the returned stages' completions run, or null for the runtime's
 *     own threads ({@value AsyncToolCalls#BODY_THREAD_NAME}-N, created as calls need them, at most
 *     two per pending call)
 */
public record AsyncSettings(int threads, int maxPending, Executor bodies) {

    /** 8 threads, 1024 pending calls, bodies on the runtime's own threads. */
    public static final AsyncSettings DEFAULT = new AsyncSettings(AsyncToolCalls.THREADS, AsyncToolCalls.MAX_PENDING,
            null);

    /** Checks the bounds. */
    public AsyncSettings {
        if (threads < 1) {
            throw new IllegalArgumentException("async.threads must be at least 1, was " + threads);
        }
        if (maxPending < 1) {
            throw new IllegalArgumentException("async.max.pending must be at least 1, was " + maxPending);
        }
    }
}
