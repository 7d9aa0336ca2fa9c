package io.idempotent.benchmarks.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's load, printed beside the figures: this machine is shared, so figures are noisy. */
final class Load {

    private Load() {
    }

    /** The 1-, 5- and 15-minute load averages and the number of cores, or a note that they are unknown. */
    static String now() {
        int cores = Runtime.getRuntime().availableProcessors();
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return "load " + parts[0] + " " + parts[1] + " " + parts[2] + " on " + cores + " cores";
        } catch (IOException | RuntimeException e) {
            return "load unknown (" + e.getClass().getSimpleName() + ") on " + cores + " cores";
        }
    }
}
