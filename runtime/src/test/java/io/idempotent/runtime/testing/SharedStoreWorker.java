package io.idempotent.runtime.testing;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.NeedsReconciliationException;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.binding.ToolPolicy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One JVM of several that share an embedded H2 store (the store's settings come from system
 * properties, as an application's do): it works the operation ids {@code 1..n} in an order of
 * its own, each until it has a final answer (the result, or "needs reconciliation"), and prints
 * one line per answer it got, with how long the call took. The tool is a manual-review tool
 * ({@link Retry#SAFE}, marked effect boundary) whose body marks the boundary and then appends
 * its effect, forced to disk, to a file outside the store: what the test counts.
 *
 * <p>Lines: {@code started <pid>}, {@code h2 <minor>.<build>} (the H2 version it runs),
 * {@code ready <pid>}, then {@code answer <id> <millis> <kind> <retryable> <flags>}
 * per answer ({@code kind} is {@code result:<value>} or the exception's simple class name;
 * {@code flags} is {@code -} or the forbidden words its message carried: corrupt, backup,
 * aside), then {@code finished}.
 */
public final class SharedStoreWorker {

    /** Words no answer of a healthy, shared store may carry. */
    private static final List<String> FORBIDDEN = List.of("corrupt", "backup", "aside");

    private SharedStoreWorker() {
    }

    /** The tool: manual review, SAFE, marked boundary, a short lease so that the tests' stalls outlast it. */
    public static ToolPolicy tool(Duration lease) {
        return Policies.marked("shared", Retry.SAFE).lease(lease).build();
    }

    /**
     * {@code args}: effects file, number of ids, seed of this JVM's order, threads, lease
     * (ISO-8601), the body's pause in milliseconds (a window for a kill inside the body), and
     * whether to wait for a line on standard input before working.
     */
    public static void main(String[] args) throws Exception {
        Path effects = Path.of(args[0]);
        int ids = Integer.parseInt(args[1]);
        long seed = Long.parseLong(args[2]);
        int threads = Integer.parseInt(args[3]);
        ToolPolicy tool = tool(Duration.parse(args[4]));
        long pause = Long.parseLong(args[5]);
        boolean waitForGo = Boolean.parseBoolean(args[6]);
        long pid = ProcessHandle.current().pid();
        try (IdempotentRuntime runtime = IdempotentRuntime.fromEnvironment()) {
            say("started " + pid);
            // Read at run time: the compiled constant would be the build's H2 version, not the class path's.
            say("h2 " + Class.forName("org.h2.engine.Constants").getField("VERSION_MINOR").get(null) + "."
                    + Class.forName("org.h2.engine.Constants").getField("BUILD_ID").get(null));
            // One first call opens (or joins) the store before the test starts its clock.
            settle(runtime, tool, "warm-up:" + pid, effects, pid, 0);
            say("ready " + pid);
            if (waitForGo) {
                while (System.in.read() != '\n') {
                    // the test says go
                }
            }
            List<String> order = new ArrayList<>();
            for (int i = 1; i <= ids; i++) {
                order.add("op-" + i);
            }
            Collections.shuffle(order, new Random(seed));
            AtomicInteger next = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            for (int t = 0; t < threads; t++) {
                pool.execute(() -> {
                    for (int i; (i = next.getAndIncrement()) < order.size(); ) {
                        settle(runtime, tool, order.get(i), effects, pid, pause);
                    }
                });
            }
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.MINUTES);
            say("finished");
        }
    }

    /** Calls {@code id} until it has a final answer, printing every answer. */
    private static void settle(IdempotentRuntime runtime, ToolPolicy tool, String id, Path effects, long pid,
            long pause) {
        while (true) {
            long start = System.nanoTime();
            String kind;
            boolean retryable;
            String message;
            try {
                kind = "result:" + call(runtime, tool, id, effects, pid, pause);
                retryable = false;
                message = "";
            } catch (IdempotencyException e) {
                kind = e.getClass().getSimpleName();
                retryable = e.retryable() && !(e instanceof NeedsReconciliationException);
                message = String.valueOf(e.getMessage());
            } catch (Exception e) {
                kind = e.getClass().getSimpleName();
                retryable = false;
                message = String.valueOf(e.getMessage());
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            List<String> flags = new ArrayList<>();
            for (String word : FORBIDDEN) {
                if (message.toLowerCase(Locale.ROOT).contains(word)) {
                    flags.add(word);
                }
            }
            say("answer " + id + " " + millis + " " + kind + " " + retryable + " "
                    + (flags.isEmpty() ? "-" : String.join(",", flags)));
            if (!retryable) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static String call(IdempotentRuntime runtime, ToolPolicy tool, String id, Path effects, long pid,
            long pause) throws Exception {
        return runtime.call(tool, id, Map.of("id", id), String.class, () -> {
            OperationContext.current().effectStarting("req-" + id);
            append(effects, id + " " + pid + "\n");
            if (pause > 0) {
                Thread.sleep(pause);
            }
            return "done:" + id + ":" + pid;
        });
    }

    /** Appends {@code line} to {@code file} and forces it to disk: the effect is real once this returns. */
    private static void append(Path file, String line) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            channel.write(ByteBuffer.wrap(line.getBytes(StandardCharsets.US_ASCII)));
            channel.force(true);
        }
    }

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
