package io.idempotent.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.build.IdempotentPlugin;
import io.idempotent.it.probe.AsyncProbeTools;
import io.idempotent.it.tools.Effects;
import io.idempotent.it.tools.ShapeTools;
import io.idempotent.runtime.OperationInProgressException;
import io.idempotent.runtime.PayloadConflictException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.agent.WovenAtBuild;
import java.io.File;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.build.Plugin;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.loading.ByteArrayClassLoader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build-plugin tier: {@link IdempotentPlugin} applied by Byte Buddy's own {@link Plugin.Engine}
 * to the compiled test tools (as Byte Buddy's Maven and Gradle plugins apply it), the woven class
 * files loaded without any agent. The whole advice contract holds for them, and so do conflicts,
 * calls in progress and asynchronous tools; under the agent as well, a woven call makes one claim.
 */
class WovenAtBuildTest extends AdvisedToolsContract {

    @TempDir
    static Path woven;

    private static Map<String, byte[]> classes;
    private static Class<?> shapes;
    private static Class<?> asyncTools;

    @BeforeAll
    static void weave() throws Exception {
        Plugin.Engine.Summary summary = weave(classesFolder(), woven.toFile());
        assertThat(summary.getFailed()).isEmpty();
        assertThat(summary.getTransformed()).extracting(TypeDescription::getName)
                .contains(ShapeTools.class.getName(), AsyncProbeTools.class.getName());
        classes = new HashMap<>(Map.of(ShapeTools.class.getName(), wovenBytes(ShapeTools.class),
                AsyncProbeTools.class.getName(), wovenBytes(AsyncProbeTools.class)));
        // The asynchronous tools' package-private hooks must share their loader (a package is per loader).
        try (var hooks = Files.list(woven.resolve("io/idempotent/it/probe"))) {
            for (Path file : hooks.filter(f -> f.getFileName().toString().startsWith("AsyncProbeHooks")).toList()) {
                String name = "io.idempotent.it.probe." + file.getFileName().toString().replace(".class", "");
                classes.put(name, Files.readAllBytes(file));
            }
        }
        ClassLoader loader = load(classes);
        shapes = loader.loadClass(ShapeTools.class.getName());
        asyncTools = loader.loadClass(AsyncProbeTools.class.getName());
    }

    @Override
    Class<?> advisedTools() {
        return shapes;
    }

    @Test
    void theWovenClassIsMarkedAndReferencesTheRuntimeButNeverByteBuddy() throws Exception {
        assertThat(shapes.getClassLoader()).isNotSameAs(ShapeTools.class.getClassLoader());
        WovenAtBuild mark = shapes.getAnnotation(WovenAtBuild.class);
        assertThat(mark).isNotNull();
        assertThat(mark.format()).isEqualTo(WovenAtBuild.FORMAT);
        String constants = new String(wovenBytes(ShapeTools.class), StandardCharsets.ISO_8859_1);
        assertThat(constants).contains("io/idempotent/runtime/agent/ToolDispatcher").doesNotContain("net/bytebuddy");
    }

    @Test
    void aClassIsWovenOnceEvenWhenThePluginRunsAgainOnItsOutput(@TempDir Path again) throws Exception {
        Plugin.Engine.Summary summary = weave(woven.toFile(), again.toFile());
        assertThat(summary.getFailed()).isEmpty();
        assertThat(summary.getTransformed()).extracting(TypeDescription::getName)
                .doesNotContain(ShapeTools.class.getName(), AsyncProbeTools.class.getName());
    }

    @Test
    void aChangedPayloadUnderTheSameKeyIsRefusedAndTheBodyRunsOnce() throws Throwable {
        Object tools = shapes.getDeclaredConstructor().newInstance();
        invoke(tools, "addNote", "t-conflict", "first text");
        assertThatThrownBy(() -> invoke(tools, "addNote", "t-conflict", "other text"))
                .isInstanceOf(PayloadConflictException.class);
        assertThat(Effects.count("note:t-conflict")).isEqualTo(1);
    }

    @Test
    void aCallWhileTheSameOperationIsInItsBodyIsRefusedAsInProgress() throws Throwable {
        String session = "session-" + UUID.randomUUID();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch open = new CountDownLatch(1);
        Effects.gate("note:t-busy", entered, open);
        Object tools = shapes.getDeclaredConstructor().newInstance();
        CompletableFuture<Object> first = CompletableFuture.supplyAsync(() -> {
            try (Step step = Step.begin(session)) {
                return invoke(tools, "addNote", "t-busy", "text");
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        });
        assertThat(entered.await(30, TimeUnit.SECONDS)).as("the first call entered its body").isTrue();
        try (Step step = Step.begin(session)) {
            assertThatThrownBy(() -> invoke(tools, "addNote", "t-busy", "text"))
                    .isInstanceOf(OperationInProgressException.class);
        } finally {
            open.countDown();
        }
        first.get(30, TimeUnit.SECONDS);
        assertThat(Effects.count("note:t-busy")).isEqualTo(1);
    }

    @Test
    void anAsynchronousToolRunsOnceOnTheRuntimesExecutorAndIsReplayed() throws Throwable {
        // Its body also appends to effects.log in the working directory (the forked tests read it there).
        boolean logExisted = Files.exists(Path.of("effects.log"));
        AtomicInteger runs = asyncRuns();
        int before = runs.get();
        String orderId = "o-" + UUID.randomUUID();
        Object first = ((CompletableFuture<?>) invoke(null, asyncTools, "staticCharge", orderId, 500L))
                .get(30, TimeUnit.SECONDS);
        Object again = ((CompletableFuture<?>) invoke(null, asyncTools, "staticCharge", orderId, 500L))
                .get(30, TimeUnit.SECONDS);
        assertThat(again).isEqualTo(first);
        assertThat(runs.get() - before).isEqualTo(1);
        if (!logExisted) {
            Files.deleteIfExists(Path.of("effects.log"));
        }
    }

    @Test
    void underTheAgentTooAWovenCallMakesOneClaimAndIsCountedApart() throws Throwable {
        InstalledTransformers agent = AgentInstaller.install(ByteBuddyAgent.install());
        try {
            int wovenBefore = AgentStatus.wovenMethods();
            int wrappedBefore = AgentStatus.wrappedMethods();
            // A fresh loader: the agent sees the woven class as it is defined.
            Class<?> underAgent = load(classes).loadClass(ShapeTools.class.getName());
            Object tools = underAgent.getDeclaredConstructor().newInstance();
            assertThat(invoke(tools, underAgent, "reserve", "sku-agent", 3)).isEqualTo(1003);
            assertThat(invoke(tools, underAgent, "reserve", "sku-agent", 3)).isEqualTo(1003);
            assertThat(Effects.count("reserve:sku-agent")).isEqualTo(1);
            assertThat(AgentStatus.wovenMethods() - wovenBefore).isEqualTo(5);
            assertThat(AgentStatus.wrappedMethods()).isEqualTo(wrappedBefore);
            assertThat(AgentStatus.transformationErrors()).isZero();
        } finally {
            agent.reset(ByteBuddyAgent.getInstrumentation());
        }
    }

    @Test
    void anAgentThatCouldNotStartMakesWovenToolsRefuseTheirCallsToo() throws Throwable {
        var refusal = AgentInstaller.installRefusal(ByteBuddyAgent.install(), "the test's agent did not start");
        try {
            Class<?> underAgent = load(classes).loadClass(ShapeTools.class.getName());
            Object tools = underAgent.getDeclaredConstructor().newInstance();
            assertThatThrownBy(() -> invoke(tools, underAgent, "addNote", "t-refused", "text"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("@IdempotentTool method " + ShapeTools.class.getName()
                            + ".addNote refused: the test's agent did not start");
            assertThat(Effects.count("note:t-refused")).isZero();
        } finally {
            refusal.reset(ByteBuddyAgent.getInstrumentation(),
                    net.bytebuddy.agent.builder.AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
        }
    }

    /** Applies the plugin to the test tools of {@code source}, as Byte Buddy's Maven plugin does, writing to {@code target}. */
    static Plugin.Engine.Summary weave(File source, File target) throws Exception {
        return new Plugin.Engine.Default()
                .with(ClassFileLocator.ForClassLoader.of(WovenAtBuildTest.class.getClassLoader()))
                .withErrorHandlers(Plugin.Engine.ErrorHandler.Failing.FAIL_LAST)
                .apply(new Plugin.Engine.Source.Filtering(new Plugin.Engine.Source.ForFolder(source),
                        element -> element.getName().startsWith("io/idempotent/it/")
                                || element.getName().startsWith("META-INF/")),
                        new Plugin.Engine.Target.ForFolder(target),
                        List.of(new Plugin.Factory.Simple(new IdempotentPlugin(source))));
    }

    private static File classesFolder() throws URISyntaxException {
        return new File(ShapeTools.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static byte[] wovenBytes(Class<?> type) throws Exception {
        return Files.readAllBytes(woven.resolve(type.getName().replace('.', '/') + ".class"));
    }

    /** A loader that defines the woven classes itself and asks the test's loader for everything else. */
    private static ClassLoader load(Map<String, byte[]> types) {
        return new ByteArrayClassLoader.ChildFirst(WovenAtBuildTest.class.getClassLoader(), types);
    }

    private static AtomicInteger asyncRuns() throws Exception {
        Field runs = asyncTools.getClassLoader().loadClass("io.idempotent.it.probe.AsyncProbeHooks")
                .getDeclaredField("RUNS");
        runs.setAccessible(true);
        return (AtomicInteger) runs.get(null);
    }

    private Object invoke(Object target, String method, Object... args) throws Throwable {
        return invoke(target, shapes, method, args);
    }

    private static Object invoke(Object target, Class<?> type, String method, Object... args) throws Throwable {
        Method m = Arrays.stream(type.getDeclaredMethods()).filter(x -> x.getName().equals(method)).findFirst()
                .orElseThrow();
        var handle = MethodHandles.publicLookup().unreflect(m);
        return (target == null ? handle : handle.bindTo(target)).invokeWithArguments(args);
    }
}
