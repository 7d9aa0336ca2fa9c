package io.idempotent.benchmarks.inprocess;

import io.idempotent.benchmarks.BenchTools;
import io.idempotent.runtime.internal.ResultCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
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
 * The JVM-side parts of a fresh call that issue 39 asks to price against its statements: the
 * result's JSON written once ({@code resultWrite}, what a call would cost without the check),
 * {@link ResultCodec#writeChecked} for a record result (written, read back into the return type and
 * written again: the check a settlement gets) and for a {@code String} (no read-back: a trivial
 * scalar reads back as written), and the {@code stat} that {@code H2FileWatch} makes each time the
 * store takes a connection of an embedded H2 file ({@code Files.readAttributes} of a real file, as
 * the watch calls it). No agent and no database needed:
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar FreshCallParts -prof io.idempotent.benchmarks.inprocess.CpuTimeProfiler
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FreshCallPartsBenchmark {

    private final BenchTools.Receipt receipt = new BenchTools.Receipt("inv-100001", 100L);
    private ResultCodec results;
    private Path dir;
    private Path file;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        results = new ResultCodec(StubRuntime.defaultMapper());
        dir = Files.createTempDirectory("fresh-call-parts");
        file = Files.write(dir.resolve("store.mv.db"), new byte[4096]);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    @Benchmark
    public String resultWrite() throws Exception {
        return results.write(receipt);
    }

    @Benchmark
    public ResultCodec.Checked resultWriteChecked() {
        return results.writeChecked(receipt, BenchTools.Receipt.class);
    }

    @Benchmark
    public ResultCodec.Checked stringWriteChecked() {
        return results.writeChecked("inv-100001", String.class);
    }

    @Benchmark
    public Object h2FileStat() throws IOException {
        return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
    }
}
