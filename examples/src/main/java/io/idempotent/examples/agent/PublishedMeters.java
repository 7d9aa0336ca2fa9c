package io.idempotent.examples.agent;

import io.idempotent.micrometer.MicrometerMetrics;
import io.idempotent.runtime.IdempotentRuntime;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * This JVM's {@link MicrometerMetrics} on a {@link SimpleMeterRegistry}, attached to the global
 * runtime the agent uses, and its counters written to {@code meters/<jvm>.properties} in the demo
 * directory after every tool call: the demo's scrape. A JVM that halts loses the increments of its
 * unfinished call, as a dashboard loses a crashed JVM's unscraped increments.
 */
final class PublishedMeters {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Path file;

    private PublishedMeters(Path file) {
        this.file = file;
    }

    /** Meters of this JVM's global runtime, published as {@code jvm} in {@code demoDir}. */
    static PublishedMeters attach(Path demoDir, String jvm) {
        PublishedMeters meters = new PublishedMeters(demoDir.resolve("meters").resolve(jvm + ".properties"));
        IdempotentRuntime.global().addMetricsListener(new MicrometerMetrics(meters.registry));
        meters.publish();
        return meters;
    }

    /** Writes the counters' current values (whole file, atomically replaced). */
    synchronized void publish() {
        Properties values = new Properties();
        for (Counter c : registry.find(MicrometerMetrics.ATTEMPTS).counters()) {
            values.setProperty(c.getId().getTag("tool") + ".attempts", Long.toString((long) c.count()));
        }
        for (Counter c : registry.find(MicrometerMetrics.OUTCOMES).counters()) {
            values.setProperty(c.getId().getTag("tool") + "." + c.getId().getTag("outcome"),
                    Long.toString((long) c.count()));
        }
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp)) {
                values.store(w, MicrometerMetrics.ATTEMPTS + " and " + MicrometerMetrics.OUTCOMES + " of one JVM");
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The sum over every JVM's published counters, keyed {@code tool.attempts} and
     * {@code tool.<outcome>} (outcome as tagged, e.g. {@code replayed}).
     */
    static Map<String, Long> sum(Path demoDir) {
        Map<String, Long> total = new HashMap<>();
        Path dir = demoDir.resolve("meters");
        if (!Files.isDirectory(dir)) {
            return total;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".properties")).toList()) {
                Properties values = new Properties();
                try (Reader r = Files.newBufferedReader(f)) {
                    values.load(r);
                }
                values.stringPropertyNames().forEach(k -> total.merge(k, Long.parseLong(values.getProperty(k)),
                        Long::sum));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return total;
    }
}
