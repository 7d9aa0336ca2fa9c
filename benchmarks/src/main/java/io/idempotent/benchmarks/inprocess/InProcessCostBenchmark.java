package io.idempotent.benchmarks.inprocess;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.idempotent.benchmarks.BenchTools;
import io.idempotent.benchmarks.BenchTools_IdempotentTools;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.internal.PayloadCodec;
import io.idempotent.runtime.internal.ResultCodec;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a wrapped call costs in the process, without the store: the agent's advice, the binding
 * lookup, key and payload, the canonical payload and its SHA-256, the protocol's decisions, the
 * heartbeat's scheduling and the result's JSON, for the three-argument {@link BenchTools#refund},
 * against {@link InMemoryOperationStore}. Goal of issue 10: at most 1.5 µs per call. Run with the
 * agent attached to the forked JVM:
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar InProcessCost \
 *     -jvmArgsAppend -javaagent:javaagent/target/idempotent-javaagent-0.1.0-SNAPSHOT.jar
 * </pre>
 *
 * Add {@code -prof io.idempotent.benchmarks.inprocess.CpuTimeProfiler} for the CPU time per call
 * (on a shared machine the wall-clock average also counts the waits for a core), {@code -prof gc}
 * for the allocation per call and {@code -prof stack} for where the time goes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
// A long warm-up: on a loaded machine the JIT compiler gets little CPU and takes its time.
@Warmup(iterations = 15, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class InProcessCostBenchmark {

    private static final String REPLAYED = "replayed";

    private final BenchTools tools = new BenchTools();
    private final String[] ids = new String[1024];
    private int next;
    private InMemoryOperationStore store;
    private IdempotentRuntime runtime;
    private PayloadCodec payloads;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        for (int i = 0; i < ids.length; i++) {
            ids[i] = "inv-" + (100_000 + i);
        }
        ObjectMapper mapper = StubRuntime.defaultMapper();
        payloads = new PayloadCodec(mapper);
        Object[] replayArgs = {REPLAYED, 100L, "EUR"};
        String key = BenchTools_IdempotentTools.REFUND.key(replayArgs);
        PayloadCodec.CanonicalPayload canonical = payloads.encode("refund", key,
                BenchTools_IdempotentTools.REFUND.payload(replayArgs));
        String result = new ResultCodec(mapper).write(tools.refundPlain(REPLAYED, 100L, "EUR"));
        store = new InMemoryOperationStore(InMemoryOperationStore.completed("refund", key, canonical.sha256(),
                canonical.json(), result));
        runtime = StubRuntime.on(store, mapper);
        IdempotentRuntime.setGlobal(runtime);
        long before = store.claims();
        tools.refund(REPLAYED, 100L, "EUR");
        if (store.claims() == before) {
            throw new IllegalStateException("the agent is not attached: pass -jvmArgsAppend -javaagent:...");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        runtime.close();
    }

    private String nextId() {
        next = (next + 1) & (ids.length - 1);
        return ids[next];
    }

    /** The body alone, unwrapped. */
    @Benchmark
    public BenchTools.Receipt plain() {
        return tools.refundPlain(nextId(), 100L, "EUR");
    }

    /** A fresh call through the agent: claim (stub), body, completion (stub). */
    @Benchmark
    public BenchTools.Receipt freshThroughAgent() {
        return tools.refund(nextId(), 100L, "EUR");
    }

    /** A replay through the agent: the stub's completed row, its result read back from JSON. */
    @Benchmark
    public BenchTools.Receipt replayThroughAgent() {
        return tools.refund(REPLAYED, 100L, "EUR");
    }

    /** A fresh call through the public API with the generated binding, no agent involved. */
    @Benchmark
    public BenchTools.Receipt freshThroughRuntime() {
        String id = nextId();
        return runtime.call(BenchTools_IdempotentTools.REFUND, new Object[] {id, 100L, "EUR"},
                () -> tools.refundPlain(id, 100L, "EUR"));
    }

    /** Only the binding's key and payload and their canonical JSON with its SHA-256. */
    @Benchmark
    public PayloadCodec.CanonicalPayload keyAndCanonicalPayload() {
        Object[] args = {nextId(), 100L, "EUR"};
        return payloads.encode("refund", BenchTools_IdempotentTools.REFUND.key(args),
                BenchTools_IdempotentTools.REFUND.payload(args));
    }
}
