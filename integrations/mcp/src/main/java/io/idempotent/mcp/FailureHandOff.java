package io.idempotent.mcp;

import java.util.concurrent.RejectedExecutionException;
import reactor.core.publisher.MonoSink;
import reactor.core.scheduler.Schedulers;

/**
 * Passes an async tool's failure on from a fresh thread. A tool whose {@code Mono} runs its work
 * with {@code subscribeOn} ({@code Mono.fromCallable(...).subscribeOn(...)}) fails on a Reactor
 * task that Reactor may cancel, from the subscribing thread, while that task is still passing the
 * failure on; the cancel interrupts it. Downstream of the failure the server writes its answer (an
 * {@code isError} refusal) on the same thread, and on the MCP SDK's servlet transport an
 * interrupted write ends the response without it (issue 51: 1 to 5 % of such answers lost).
 * Answered from another thread, the refusal is written whole.
 */
final class FailureHandOff {

    private FailureHandOff() {
    }

    /** Signals {@code failure} to {@code sink} on a boundedElastic thread (here, if none can be had). */
    static void error(MonoSink<?> sink, Throwable failure) {
        try {
            Schedulers.boundedElastic().schedule(() -> sink.error(failure));
        } catch (RejectedExecutionException e) {
            sink.error(failure); // the scheduler is shut down: answer here rather than never
        }
    }
}
