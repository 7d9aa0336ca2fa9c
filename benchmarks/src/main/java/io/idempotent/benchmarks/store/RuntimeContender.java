package io.idempotent.benchmarks.store;

import io.idempotent.benchmarks.BenchTools;
import io.idempotent.benchmarks.BenchTools_IdempotentTools;
import io.idempotent.runtime.IdempotentRuntime;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;

/**
 * This project: real tool calls through the runtime's public API with the tool's generated
 * binding ({@code IdempotentRuntime.call(binding, args, body)}), the path the agent's dispatcher
 * takes after its binding lookup: key, canonical payload and its SHA-256, claim, body, completion,
 * attempt log. The store is the application's data source, the same pool as the other contenders.
 */
final class RuntimeContender implements Contender {

    private final BenchTools tools = new BenchTools();
    private final LongAdder bodies = new LongAdder();
    private final IdempotentRuntime runtime;

    RuntimeContender(DataSource dataSource) {
        runtime = IdempotentRuntime.builder().store("default", dataSource).build();
    }

    @Override
    public String name() {
        return "this project";
    }

    @Override
    public void fresh(String id) {
        long before = bodies.sum();
        BenchTools.Receipt receipt = call(id, true);
        if (receipt == null || !receipt.orderId().equals(id)) {
            throw new IllegalStateException("this project: a fresh call of " + id + " returned " + receipt);
        }
        if (bodies.sum() == before) {
            throw new IllegalStateException("this project: a fresh call of " + id + " did not run the body");
        }
    }

    @Override
    public void replay(String id) {
        BenchTools.Receipt receipt = call(id, false);
        if (receipt == null || !receipt.orderId().equals(id)) {
            throw new IllegalStateException("this project: a replay of " + id + " returned " + receipt);
        }
    }

    /** One call; with {@code mayRun} false the body fails the run, because a replay must not run it. */
    BenchTools.Receipt call(String id, boolean mayRun) {
        return runtime.call(BenchTools_IdempotentTools.REFUND, new Object[] {id, 100L, "EUR"}, () -> {
            if (!mayRun) {
                throw new IllegalStateException("this project: the replay of " + id + " ran the body");
            }
            bodies.increment();
            return tools.refundPlain(id, 100L, "EUR");
        });
    }

    IdempotentRuntime runtime() {
        return runtime;
    }

    @Override
    public void close() {
        runtime.close();
    }
}
