package io.idempotent.benchmarks.inprocess;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.idempotent.benchmarks.BenchTools;
import io.idempotent.benchmarks.BenchTools_IdempotentTools;
import io.idempotent.runtime.internal.ResultCodec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * The parts of {@link InProcessCostBenchmark}'s fresh call, one by one, so that its cost can be
 * split into shares: the binding's key and payload, the payload's JSON trees, JSON string quoting
 * through the mapper (as the canonical writer does it for every name and string value), the
 * SHA-256 in hex with a digest looked up per call, the attempt id (a random UUID), the heartbeat's
 * schedule-and-cancel on a {@code ScheduledThreadPoolExecutor} (as {@code LeaseHeartbeat} does
 * per call) and the result's JSON. The JDK and Jackson calls are those the runtime's classes made
 * before issue 10's in-process changes (a tree per argument, a digest looked up and a random UUID
 * per call, a heartbeat scheduled per call), kept as the baseline the README's figures compare
 * with; string quoting through the mapper was never what the canonical writer does. No agent
 * needed:
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar InProcessParts -prof io.idempotent.benchmarks.inprocess.CpuTimeProfiler
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 10, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class InProcessPartsBenchmark {

    private final Object[] args = {"inv-100001", 100L, "EUR"};
    private final BenchTools.Receipt receipt = new BenchTools.Receipt("inv-100001", 100L);
    private final String json = "{\"cents\":100,\"currency\":\"EUR\",\"invoiceId\":\"inv-100001\"}";
    private ObjectMapper mapper;
    private ResultCodec results;
    private ScheduledThreadPoolExecutor scheduler;

    @Setup(Level.Trial)
    public void setUp() {
        mapper = StubRuntime.defaultMapper();
        results = new ResultCodec(mapper);
        scheduler = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "bench-heartbeat");
            t.setDaemon(true);
            return t;
        });
        scheduler.setRemoveOnCancelPolicy(true);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        scheduler.shutdownNow();
    }

    @Benchmark
    public String bindingKey() {
        return BenchTools_IdempotentTools.REFUND.key(args);
    }

    @Benchmark
    public Map<String, Object> bindingPayload() {
        return BenchTools_IdempotentTools.REFUND.payload(args);
    }

    /** {@code ObjectMapper.valueToTree} of each of the three arguments. */
    @Benchmark
    public void payloadTrees(Blackhole bh) {
        for (Object arg : args) {
            JsonNode tree = mapper.valueToTree(arg);
            bh.consume(tree);
        }
    }

    /** Three names and two string values quoted by {@code ObjectMapper.writeValueAsString}. */
    @Benchmark
    public void jsonStringsThroughMapper(Blackhole bh) throws Exception {
        bh.consume(mapper.writeValueAsString("cents"));
        bh.consume(mapper.writeValueAsString("currency"));
        bh.consume(mapper.writeValueAsString("invoiceId"));
        bh.consume(mapper.writeValueAsString("EUR"));
        bh.consume(mapper.writeValueAsString("inv-100001"));
    }

    /** {@code MessageDigest.getInstance("SHA-256")} per call, digest, hex. */
    @Benchmark
    public String sha256Hex() throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        return HexFormat.of().formatHex(digest.digest(json.getBytes(StandardCharsets.UTF_8)));
    }

    @Benchmark
    public String attemptId() {
        return UUID.randomUUID().toString();
    }

    /** One heartbeat scheduled and cancelled at once, as nearly every call's body ends before its first beat. */
    @Benchmark
    public boolean heartbeatScheduleAndCancel() {
        ScheduledFuture<?> beat = scheduler.scheduleWithFixedDelay(() -> { }, 10_000, 10_000, TimeUnit.MILLISECONDS);
        return beat.cancel(false);
    }

    @Benchmark
    public String resultJson() throws Exception {
        return results.write(receipt);
    }
}
