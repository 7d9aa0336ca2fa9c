package io.idempotent.agent.forked;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.io.TempDir;

/**
 * The base of the forked agent tests: each test's own directory, which its probes run in, the
 * shared checks of a probe run, and the readings of what the runs leave behind (the effects file
 * the tool bodies append to, the store's row of a key), so that every such test judges a run by
 * the same rules.
 */
abstract class ForkedRuns {

    /** The runtime's package, which the probes' thrown exceptions are named in. */
    static final String RUNTIME = "io.idempotent.runtime.";

    /** The test's directory, the probes' working directory. */
    @TempDir
    Path dir;

    /** A new order id, so that no two runs of a test share a key by accident. */
    static String order() {
        return "order_" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * Checks what a run that must have worked shows, and returns it: it exited normally, the agent
     * started and wrapped all {@code tools} listed tool methods without an error, and it
     * transformed classes without an error.
     */
    static ForkedProbe worked(ForkedProbe probe, int tools) {
        assertThat(probe.exitCode()).as(probe.output()).isZero();
        startedCleanly(probe, tools);
        assertThat(probe.lines()).as(probe.output()).anyMatch(l -> l.matches("AGENT transformed=[1-9]\\d* errors=0"));
        return probe;
    }

    /** The agent started, wrapped all {@code tools} listed tool methods, and nothing failed to wrap. */
    static void startedCleanly(ForkedProbe probe, int tools) {
        assertThat(probe.output()).contains("[idempotent-agent] started: wrapped " + tools + " tool method(s), "
                + tools + " listed in").doesNotContain("[idempotent-agent] ERROR").doesNotContain("could not wrap");
    }

    /** The effects the tool bodies recorded, in order. */
    List<String> effects() {
        Path file = dir.resolve("effects.log");
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The status of {@code key}'s operation in {@code store}, or {@code "no row"}. */
    String status(StoreTarget store, String key) {
        return store.row(dir, key).map(row -> (String) row.get(0)).orElse("no row");
    }

    /** Polls the table (with a deadline) until a halted JVM's lease on {@code key} is over by the database's clock. */
    void awaitLeaseExpiry(StoreTarget store, String key) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!store.row(dir, key).map(row -> (Boolean) row.get(2)).orElse(false)) {
            assertThat(System.nanoTime()).as("the lease of " + key + " expired within 60 s").isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }
}
