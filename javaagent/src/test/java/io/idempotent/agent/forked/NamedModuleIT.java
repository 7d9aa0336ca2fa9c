package io.idempotent.agent.forked;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tools in a named module, with the agent, in real JVMs: the module {@code probe.modular} is
 * compiled here with the annotation processor (its own binding and release-gate table) and put on
 * the module path; the runtime and everything else stay on the class path. It is compiled with
 * {@code --add-reads probe.modular=ALL-UNNAMED} (its bodies use the runtime's OperationContext) but
 * launched without it: the JVM makes a class an agent transformed read the unnamed module of the
 * agent's loader (java.lang.instrument), which is where the runtime is. The module exports and opens
 * nothing unless a test says so at launch; the agent wraps its tools whatever it exports (no error
 * line at start), and the runtime refuses each call it cannot make safely. Effects are counted in
 * the file the bodies append to.
 */
class NamedModuleIT extends ForkedRuns {

    private static final String MODULE = "probe.modular";
    private static final String READS = "--add-reads=" + MODULE + "=ALL-UNNAMED";

    @TempDir
    static Path build;


    private static Path modulePath;

    @BeforeAll
    static void compileTheModule() throws IOException {
        Path sources = build.resolve("src");
        write(sources.resolve("module-info.java"), "module " + MODULE + " {\n}\n");
        write(sources.resolve("probe/modular/ModularTools.java"), """
                package probe.modular;

                import io.idempotent.annotations.EffectBoundary;
                import io.idempotent.annotations.IdempotentTool;
                import io.idempotent.annotations.Retry;
                import io.idempotent.runtime.ManualReview;
                import io.idempotent.runtime.OperationContext;
                import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
                import java.io.UncheckedIOException;
                import java.nio.file.Files;
                import java.nio.file.Path;
                import java.nio.file.StandardOpenOption;
                import java.util.concurrent.CompletableFuture;
                import java.util.concurrent.atomic.AtomicInteger;

                public class ModularTools {

                    static final AtomicInteger RUNS = new AtomicInteger();

                    @IdempotentTool(key = "modular:{orderId}", downstreamKey = false, reconciler = ManualReview.class,
                            retry = Retry.SAFE, effectBoundary = EffectBoundary.MARKED, name = "probe_modular_charge")
                    public CompletableFuture<String> charge(String orderId, long amountCents) {
                        String effect = "modular " + orderId + " " + amountCents;
                        run(effect);
                        return CompletableFuture.completedFuture(effect + " on " + Thread.currentThread().getName());
                    }

                    @IdempotentTool(key = "modular-static:{orderId}", downstreamKey = false, reconciler = ManualReview.class,
                            retry = Retry.SAFE, effectBoundary = EffectBoundary.MARKED, name = "probe_modular_static")
                    public static CompletableFuture<String> staticCharge(String orderId, long amountCents) {
                        String effect = "static " + orderId + " " + amountCents;
                        run(effect);
                        return CompletableFuture.completedFuture(effect + " on " + Thread.currentThread().getName());
                    }

                    @IdempotentTool(key = "modular-note:{orderId}", downstreamKey = false, reconciler = ManualReview.class,
                            retry = Retry.SAFE, effectBoundary = EffectBoundary.MARKED, name = "probe_modular_note")
                    public String note(String orderId) {
                        String effect = "note " + orderId;
                        run(effect);
                        return effect;
                    }

                    private static void run(String effect) {
                        RUNS.incrementAndGet();
                        OperationContext.current().effectStarting(effect);
                        try {
                            Files.writeString(Path.of("effects.log"), effect + "\\n", StandardOpenOption.CREATE,
                                    StandardOpenOption.APPEND);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                }
                """);
        write(sources.resolve("probe/modular/ModularProbe.java"), """
                package probe.modular;

                import java.util.concurrent.Callable;
                import java.util.concurrent.ExecutionException;
                import java.util.concurrent.TimeUnit;

                public final class ModularProbe {

                    public static void main(String[] args) {
                        ModularTools tools = new ModularTools();
                        String order = args[0];
                        System.out.println("MODULE " + ModularTools.class.getModule().getName());
                        outcome("async-first", () -> tools.charge(order, 500).get(60, TimeUnit.SECONDS));
                        outcome("async-second", () -> tools.charge(order, 500).get(60, TimeUnit.SECONDS));
                        outcome("static-first", () -> ModularTools.staticCharge(order, 700).get(60, TimeUnit.SECONDS));
                        outcome("static-second", () -> ModularTools.staticCharge(order, 700).get(60, TimeUnit.SECONDS));
                        outcome("sync-first", () -> tools.note(order));
                        outcome("sync-second", () -> tools.note(order));
                        System.out.println("BODY_RUNS " + ModularTools.RUNS.get());
                    }

                    private static void outcome(String label, Callable<String> call) {
                        try {
                            System.out.println("OUTCOME " + label + " RESULT " + call.call());
                        } catch (ExecutionException e) {
                            thrown(label, e.getCause());
                        } catch (Exception e) {
                            thrown(label, e);
                        }
                    }

                    private static void thrown(String label, Throwable e) {
                        String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
                        System.out.println("OUTCOME " + label + " THROWN " + e.getClass().getName() + " " + message);
                    }
                }
                """);
        modulePath = build.resolve("mods").resolve(MODULE);
        String classPath = System.getProperty("java.class.path");
        List<String> options = new ArrayList<>(List.of("-d", modulePath.toString(), "-cp", classPath,
                "-processorpath", classPath, READS, "--release", "17"));
        try (var files = Files.walk(sources)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> options.add(f.toString()));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = javac.run(null, diagnostics, diagnostics, options.toArray(String[]::new));
        assertThat(status).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(modulePath.resolve("probe/modular/ModularTools_IdempotentTools.class")).exists();
    }

    @Test
    void aModuleThatExportsNothingHasItsToolsWrappedAndRefusesTheirCalls() {
        String order = order();
        ForkedProbe probe = run(order);
        String refused = "THROWN " + RUNTIME + "MissingBindingException the runtime may not create the generated"
                + " binding probe.modular.ModularTools_IdempotentTools of probe.modular.ModularTools: its module does"
                + " not let the runtime in (";
        // The cause is the module's export, not the build: the advice says so and does not send the user to rebuild.
        assertThat(probe.outcomes()).as(probe.output()).hasSize(6).allSatisfy(outcome -> assertThat(outcome)
                .contains(refused).contains("because module probe.modular does not export probe.modular")
                .contains("opens probe.modular;").contains("--add-opens").doesNotContain("Rebuild"));
        assertThat(probe.lines()).contains("BODY_RUNS 0");
        assertThat(effects()).isEmpty();
        // Refused before the claim: the embedded store was not even opened (its first JVM writes its secret).
        assertThat(dir.resolve(".idempotent/operations.secret")).doesNotExist();
    }

    @Test
    void anExportedPackageRunsItsSynchronousToolsButItsAsynchronousToolsRefuseUntilItIsOpened() {
        String order = order();
        ForkedProbe probe = run(order, "--add-exports=" + MODULE + "/probe.modular=ALL-UNNAMED");
        String refused = "THROWN java.lang.IllegalStateException @IdempotentTool method probe.modular.ModularTools.charge"
                + " returns a CompletableFuture, whose body the runtime runs on its own executor, but the runtime may"
                + " not call it: open its package to the runtime (module probe.modular does not open"
                + " probe.modular to unnamed module";
        assertThat(probe.outcomes()).as(probe.output()).hasSize(6);
        assertThat(probe.outcomes().get(0)).startsWith("async-first " + refused);
        assertThat(probe.outcomes().get(1)).startsWith("async-second " + refused);
        String staticRefused = refused.replace(".charge returns", ".staticCharge returns");
        assertThat(probe.outcomes().get(2)).startsWith("static-first " + staticRefused);
        assertThat(probe.outcomes().get(3)).startsWith("static-second " + staticRefused);
        assertThat(probe.outcomes().get(4)).isEqualTo("sync-first RESULT note " + order);
        assertThat(probe.outcomes().get(5)).as("a replay").isEqualTo("sync-second RESULT note " + order);
        assertThat(probe.lines()).contains("BODY_RUNS 1");
        assertThat(effects()).containsExactly("note " + order);
        assertThat(status(StoreTarget.H2_DEFAULT, "modular:" + order)).as("nothing claimed").isEqualTo("no row");
        assertThat(status(StoreTarget.H2_DEFAULT, "modular-static:" + order)).as("nothing claimed")
                .isEqualTo("no row");
        assertThat(status(StoreTarget.H2_DEFAULT, "modular-note:" + order)).isEqualTo("completed");
    }

    @Test
    void anOpenedPackageRunsItsAsynchronousToolsOnTheRuntimesExecutor() {
        String order = order();
        ForkedProbe probe = run(order, "--add-opens=" + MODULE + "/probe.modular=ALL-UNNAMED");
        assertThat(probe.outcomes()).as(probe.output()).hasSize(6);
        assertThat(probe.outcomes().get(0)).startsWith("async-first RESULT modular " + order + " 500 on idempotent-async-");
        assertThat(probe.results().get(1)).as("a replay").isEqualTo(probe.results().get(0));
        // The static one too: invoked again with no instance, on the runtime's executor.
        assertThat(probe.outcomes().get(2)).startsWith("static-first RESULT static " + order + " 700 on idempotent-async-");
        assertThat(probe.results().get(3)).as("a replay").isEqualTo(probe.results().get(2));
        assertThat(probe.outcomes().get(4)).isEqualTo("sync-first RESULT note " + order);
        assertThat(probe.outcomes().get(5)).isEqualTo("sync-second RESULT note " + order);
        assertThat(probe.lines()).contains("BODY_RUNS 3");
        assertThat(effects()).containsExactly("modular " + order + " 500", "static " + order + " 700", "note " + order);
        assertThat(status(StoreTarget.H2_DEFAULT, "modular:" + order)).isEqualTo("completed");
        assertThat(status(StoreTarget.H2_DEFAULT, "modular-static:" + order)).isEqualTo("completed");
        assertThat(status(StoreTarget.H2_DEFAULT, "modular-note:" + order)).isEqualTo("completed");
    }

    /**
     * Runs the module's probe with {@code options}: the agent started and wrapped its three tools
     * with the class path's (its table lists them), in the named module, without an error.
     */
    private ForkedProbe run(String order, String... options) {
        List<String> jvm = new ArrayList<>(List.of(options));
        // The main class is in a named module, so the JDK modules the runtime uses must be named too.
        jvm.add("--add-modules=java.sql");
        ForkedProbe probe = ForkedProbe.startModule(modulePath, MODULE, "probe.modular.ModularProbe", jvm,
                Jdk.current(), StoreTarget.H2_DEFAULT, dir, order).finish();
        assertThat(probe.exitCode()).as(probe.output()).isZero();
        startedCleanly(probe, 15);
        assertThat(probe.lines()).contains("MODULE " + MODULE);
        return probe;
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
