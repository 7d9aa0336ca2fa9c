package io.idempotent.benchmarks.inprocess;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time of the benchmark JVM per operation ({@code -prof
 * io.idempotent.benchmarks.inprocess.CpuTimeProfiler}). On a shared machine the wall-clock
 * average counts the time a thread waited for a core; the CPU time it used does not. It covers
 * every thread of the JVM (the heartbeat's scheduler and the garbage collector are part of a
 * call's cost; the JIT compiler, idle after warm-up, adds a little).
 */
public final class CpuTimeProfiler implements InternalProfiler {

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long cpuBefore;

    @Override
    public String getDescription() {
        return "process CPU time per operation";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        cpuBefore = os.getProcessCpuTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
            IterationParams iterationParams, IterationResult result) {
        long cpu = os.getProcessCpuTime() - cpuBefore;
        long ops = result.getMetadata().getAllOps();
        return List.of(new ScalarResult("·cpu.process", ops == 0 ? Double.NaN : cpu / (double) ops, "ns/op",
                AggregationPolicy.AVG));
    }
}
