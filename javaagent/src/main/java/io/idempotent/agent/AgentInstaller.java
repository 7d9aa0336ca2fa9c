package io.idempotent.agent;

import static net.bytebuddy.matcher.ElementMatchers.isAnnotatedWith;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;

import io.idempotent.build.weaving.Refusals;
import io.idempotent.build.weaving.RefusingAdvice;
import io.idempotent.build.weaving.ToolAdvice;
import io.idempotent.build.weaving.ToolMethods;
import io.idempotent.build.weaving.WovenMark;
import io.idempotent.policy.internal.BindingNames;
import io.idempotent.policy.internal.ConfiguredStores;
import io.idempotent.policy.internal.FrameworkClasses;
import io.idempotent.policy.internal.H2Loopback;
import io.idempotent.policy.internal.ListedTool;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.loading.ClassInjector;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs the transformation that wraps every tool method: those the release-gate tables list
 * ({@code META-INF/idempotent/tools.json}) and those annotated {@code @IdempotentTool}. It matches
 * by name, so the agent itself needs neither the annotations nor the runtime on its class path;
 * both come from the application, and a tool is wrapped even when its annotation cannot be
 * resolved at run time.
 */
public final class AgentInstaller {

    static final String DISPATCHER_RESOURCE = "io/idempotent/runtime/agent/ToolDispatcher.class";

    /** The exit status of a JVM the agent stopped because a tool class could be neither wrapped nor refused. */
    static final int REFUSAL_FAILED_EXIT_CODE = 70;

    /** The exit status of a JVM that {@code failOnMissingRuntime=true} stopped (sysexits' EX_CONFIG). */
    static final int MISSING_RUNTIME_EXIT_CODE = 78;

    private AgentInstaller() {
    }

    /**
     * The one start method of premain and agentmain. It fails closed: when the arguments are
     * refused or the installation throws, every {@code @IdempotentTool} method is made to refuse
     * its calls with the reason; only if even that cannot be installed does it throw, so that the
     * JVM does not start (premain) or the attach fails (agentmain), rather than run tools unwrapped.
     * {@code failOnMissingRuntime=true} without the runtime in the application's packaging stops
     * the JVM with {@link #MISSING_RUNTIME_EXIT_CODE} (premain; an attach fails instead), as it asks.
     */
    static void start(String arguments, Instrumentation instrumentation, boolean attached) {
        if (!SingleInstallation.claim()) {
            return;
        }
        avoidUnsafe();
        String problem;
        ConfiguredStores stores = null;
        Packaging packaging = null;
        try {
            AgentArguments args = AgentArguments.parse(arguments);
            packaging = Packaging.detect();
            if (args.flag("failOnMissingRuntime") && !packaging.hasRuntime()) {
                refuseToStart(packaging, attached);
            }
            args.publish();
            // Before any application code can use H2 first: its servers then bind to loopback only.
            H2Loopback.keep();
            stores = StartStores.check(ListedTools.of(ClassLoader.getSystemClassLoader()));
            ListedTools.packaging(packaging.listed());
            install(instrumentation);
            problem = null;
        } catch (MissingRuntime e) {
            throw e;
        } catch (Throwable t) {
            problem = t instanceof IllegalArgumentException ? t.getMessage() : t.toString();
        }
        if (problem == null) {
            logStart(attached, stores, packaging, instrumentation);
            return;
        }
        AgentLog.error("the agent did not start: " + problem + ". Every @IdempotentTool method refuses its calls"
                + " until the JVM is restarted with a working configuration");
        try {
            installRefusal(instrumentation, "the idempotent agent did not start (" + problem + "), so the call cannot"
                    + " be claimed; fix the agent's configuration and restart the JVM");
        } catch (Throwable t) {
            AgentLog.error("cannot make the tools refuse their calls either (" + t + "): stopping the start-up,"
                    + " the tools must not run unwrapped");
            throw new IllegalStateException("the idempotent agent did not start: " + problem, t);
        }
    }

    /**
     * {@code failOnMissingRuntime=true} and no runtime where the application's class loader will
     * look: one ERROR that says where the agent looked, then the JVM exits with a status of its own
     * (an exception out of premain would be a JVM fatal error instead); an attach fails.
     */
    private static void refuseToStart(Packaging packaging, boolean attached) {
        AgentLog.error("idempotent-runtime is not in the application and failOnMissingRuntime=true: "
                + (attached ? "refusing the attach" : "stopping the JVM (exit status " + MISSING_RUNTIME_EXIT_CODE
                        + ")") + ". The application is " + packaging.name() + "; the agent looked for "
                + DISPATCHER_RESOURCE + " in " + packaging.places() + ". Add io.idempotent:idempotent-runtime to the"
                + " application's dependencies (compile or runtime scope, so that it is packaged with it)");
        if (!attached) {
            System.exit(MISSING_RUNTIME_EXIT_CODE);
        }
        throw new MissingRuntime();
    }

    /**
     * Loads the listed classes the system class loader can (so that they are wrapped now), then
     * says what was wrapped, what will be when the application's own class loader loads the rest,
     * and on which stores.
     */
    private static void logStart(boolean attached, ConfiguredStores stores, Packaging packaging,
            Instrumentation instrumentation) {
        try {
            ListedTools listed = ListedTools.of(packaging.listed());
            int notLoaded = ListedClasses.load(listed);
            LoadedListedClasses.retransformMissed(instrumentation, listed);
            AgentStatus.listed(listed.all().size());
            AgentLog.info(StartLine.describe(AgentStatus.wrappedMethods(), AgentStatus.wovenMethods(),
                    AgentStatus.refusingMethods(), listed.all().size(), notLoaded, stores.describe(), packaging.name())
                    + (attached ? " (attached)" : ""));
            AgentStatus.markStarted();
        } catch (RuntimeException | LinkageError e) {
            // The tools are wrapped; a start line that cannot be written is no reason to refuse them.
            AgentLog.error("started, but cannot describe the start: " + e);
        }
    }

    /** {@code failOnMissingRuntime=true} and no runtime: the one failure that must stop the JVM (or the attach). */
    private static final class MissingRuntime extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        MissingRuntime() {
            super("idempotent-runtime is not in the application, and failOnMissingRuntime=true");
        }
    }

    /**
     * Advice is inlined into the tool classes, so the agent never injects classes and has no use
     * for {@code sun.misc.Unsafe}; telling the shaded Byte Buddy so keeps JDK 24+ from warning
     * that a terminally deprecated method was called. A value the user set is left alone.
     */
    static void avoidUnsafe() {
        String property = ClassInjector.UsingUnsafe.SAFE_PROPERTY;
        if (System.getProperty(property) == null) {
            System.setProperty(property, "true");
        }
    }

    /**
     * Installs the transformation on {@code instrumentation} and retransforms the tool classes
     * already loaded; also used by in-process tests, which reset the returned transformers. A class
     * whose transformation fails (a type its tools name cannot be resolved, for instance) does not
     * load unchanged: a second transformation, which the JVM applies after the first, makes its tool
     * methods refuse every call ({@link RefusingAdvice}, as when the agent cannot start). The tool
     * methods are those the release-gate tables list and those annotated ({@link ToolMethods}).
     */
    public static InstalledTransformers install(Instrumentation instrumentation) {
        UnwrappedTypes unwrapped = new UnwrappedTypes();
        ResettableClassFileTransformer protocol = builder(new ProtocolListener(unwrapped))
                .with((AgentBuilder.TransformerDecorator) ToolClassFilter::new)
                .type(AgentInstaller::declaresTools)
                .transform((DynamicType.Builder<?> type, TypeDescription description, ClassLoader loader,
                        JavaModule module, ProtectionDomain domain) -> protocol(type, description, loader))
                .installOn(instrumentation);
        ResettableClassFileTransformer refusal;
        try {
            refusal = builder(new RefusalListener())
                    .type((TypeDescription description, ClassLoader loader, JavaModule module, Class<?> redefined,
                            ProtectionDomain domain) -> unwrapped.reason(description.getName(), loader) != null)
                    .transform((DynamicType.Builder<?> type, TypeDescription description, ClassLoader loader,
                            JavaModule module, ProtectionDomain domain) -> refusing(type, description, loader,
                                    unwrapped.reason(description.getName(), loader)))
                    .installOn(instrumentation);
        } catch (RuntimeException | Error e) {
            // Without the refusal a failed class would run unwrapped: the caller falls back to refusing all tools.
            protocol.reset(instrumentation, AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
            throw e;
        }
        return new InstalledTransformers(protocol, refusal);
    }

    /**
     * Installs, in place of the protocol, a transformation that makes every tool method refuse its
     * calls with {@code reason}; also used by in-process tests, which reset the returned transformer.
     */
    static ResettableClassFileTransformer installRefusal(Instrumentation instrumentation, String reason) {
        return builder(new RefusalListener()).type(AgentInstaller::declaresTools)
                .transform((DynamicType.Builder<?> type, TypeDescription description, ClassLoader loader,
                        JavaModule module, ProtectionDomain domain) -> refusing(type, description, loader, reason))
                .installOn(instrumentation);
    }

    private static boolean declaresTools(TypeDescription description, ClassLoader loader, JavaModule module,
            Class<?> redefined, ProtectionDomain domain) {
        return ToolMethods.declaresTools(description, ListedTools.forType(description, loader));
    }

    /** Every tool method of the class refuses its calls with {@code reason}. */
    private static DynamicType.Builder<?> refusing(DynamicType.Builder<?> type, TypeDescription description,
            ClassLoader loader, String reason) {
        ToolMethods tools = ToolMethods.of(description, ListedTools.forType(description, loader));
        AgentStatus.planned(description.getName(), loader, 0, tools.wrappedCount() + tools.strayCount(), 0);
        return type.visit(RefusingAdvice.refusing(reason).on(tools.all()));
    }

    private static AgentBuilder builder(AgentBuilder.Listener listener) {
        return new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                // Describes loaded classes from their class files: reflection on a loaded class (its methods) would
                // load the classes its signatures name inside this transformation, which leaves them unchanged.
                .with(AgentBuilder.DescriptionStrategy.Default.POOL_FIRST)
                .with(listener)
                .ignore(nameStartsWith("java.").or(nameStartsWith("jdk.")).or(nameStartsWith("sun."))
                        .or(nameStartsWith("com.sun.")).or(nameStartsWith("io.idempotent.agent."))
                        .or(nameStartsWith("io.idempotent.runtime.")));
    }

    /** The annotated methods (the in-process tests weave by annotation alone). */
    static ElementMatcher.Junction<MethodDescription> toolMethods() {
        return isAnnotatedWith(named(ToolMethods.ANNOTATION)).and(not(isSynthetic()));
    }

    /**
     * The protocol for the tool methods of a class, or a refusal when its loader cannot see the
     * runtime; a listed tool the class has no method for is an error, and the methods of its name
     * refuse their calls.
     */
    private static DynamicType.Builder<?> protocol(DynamicType.Builder<?> type, TypeDescription description,
            ClassLoader loader) {
        ToolMethods tools = ToolMethods.of(description, ListedTools.forType(description, loader));
        if (WovenMark.isWoven(description)) {
            // Woven at build time: its tools already run through the protocol; wrapping them again
            // would make two claims per call. Counted apart, left as they are.
            AgentStatus.planned(description.getName(), loader, 0, 0, tools.wrappedCount());
            return type;
        }
        ClassLoader visible = loader != null ? loader : ClassLoader.getSystemClassLoader();
        for (ListedTool tool : tools.unmatched()) {
            String refused = tools.strayCount() == 0 ? "Nothing of that name can be wrapped"
                    : "Its methods named " + tool.methodName() + " refuse every call";
            String missing = MissingTypes.of(tool, visible);
            if (missing != null) {
                // The method is there, but names a class that is not: say which, not "has no method".
                AgentLog.error(description.getName() + "'s tool " + tool.name() + " (" + tool.method() + ") cannot be"
                        + " wrapped: " + FrameworkClasses.missing(missing) + ". " + refused + " until then");
                continue;
            }
            AgentLog.error(description.getName() + " has no method " + tool.method() + ", which the release-gate table"
                    + " lists as tool " + tool.name() + ": the class changed after the processor ran, or the table is"
                    + " another build's. " + refused + "; rebuild it with the idempotent-processor annotation processor");
        }
        if (visible.getResource(DISPATCHER_RESOURCE) == null) {
            AgentLog.error(description.getName() + " has @IdempotentTool methods, but idempotent-runtime is not"
                    + " visible from its class loader: every call of them will be refused. Add"
                    + " io.idempotent:idempotent-runtime to the application");
            return refusing(type, description, loader, Refusals.RUNTIME_MISSING);
        }
        String binding = bindingClassName(description);
        if (visible.getResource(binding.replace('.', '/') + ".class") == null) {
            AgentLog.error(description.getName() + " has @IdempotentTool methods but no generated binding " + binding
                    + ": it was compiled without the idempotent-processor annotation processor. Every call will be"
                    + " refused with MissingBindingException; add io.idempotent:idempotent-processor to the"
                    + " compiler's annotationProcessorPaths and rebuild");
        }
        if (visible.getResource(BindingNames.ANNOTATIONS_CLASS_FILE) == null) {
            AgentLog.error(description.getName() + " has tools, but idempotent-annotations is not visible from its"
                    + " class loader: its generated binding needs it, so every call will be refused with"
                    + " MissingBindingException. Add io.idempotent:idempotent-annotations to the application's run-time"
                    + " dependencies (not provided or compileOnly)");
        }
        AgentStatus.planned(description.getName(), loader, tools.wrappedCount(), tools.strayCount(), 0);
        DynamicType.Builder<?> wrapped = type.visit(toolAdvice(visible).on(tools.wrapped()));
        if (tools.strayCount() == 0) {
            return wrapped;
        }
        return wrapped.visit(RefusingAdvice.refusing("the release-gate table lists a tool of this name with other"
                + " parameters: the class changed after the processor ran, so the call cannot be matched to its"
                + " binding. Rebuild it with the idempotent-processor annotation processor").on(tools.strays()));
    }

    /** The protocol's advice; its runtime types are found through the tool's loader ({@link ToolAdvice#advice}). */
    private static Advice toolAdvice(ClassLoader visible) {
        return ToolAdvice.advice(ClassFileLocator.ForClassLoader.of(visible));
    }

    /** The binding's class name, by the rule the processor wrote it with (on a type description: no class is loaded). */
    static String bindingClassName(TypeDescription type) {
        return BindingNames.bindingClassName(type.getName(), type.getPackage() == null ? ""
                : type.getPackage().getName());
    }

    /**
     * Counts what each class's protocol transformation wrapped once it succeeded, and reports every
     * class whose transformation failed and hands it to the refusal transformation, so that its
     * tools refuse their calls instead of running unwrapped.
     */
    private static final class ProtocolListener extends AgentBuilder.Listener.Adapter {
        private final UnwrappedTypes unwrapped;

        ProtocolListener(UnwrappedTypes unwrapped) {
            this.unwrapped = unwrapped;
        }

        @Override
        public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
                DynamicType dynamicType) {
            AgentStatus.done(type.getName(), loader);
        }

        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded,
                Throwable throwable) {
            AgentStatus.error();
            AgentStatus.failed(typeName, loader);
            AgentLog.error("could not wrap the tools of " + typeName + ": " + throwable + MissingTypes.hint(throwable)
                    + ". Every @IdempotentTool method of it refuses its calls until the cause is fixed and the JVM"
                    + " restarted");
            unwrapped.add(typeName, loader, "the idempotent agent could not wrap it (" + throwable + "), so the"
                    + " call cannot be claimed; the [idempotent-agent] ERROR line on the JVM's standard error"
                    + " names the class and the cause");
        }
    }

    /**
     * Counts the refusals woven, and is the last resort when even the refusal cannot be woven into a
     * class: as at start-up, the JVM stops rather than let a tool run unwrapped.
     */
    private static final class RefusalListener extends AgentBuilder.Listener.Adapter {
        @Override
        public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
                DynamicType dynamicType) {
            AgentStatus.done(type.getName(), loader);
        }

        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded,
                Throwable throwable) {
            AgentStatus.error();
            AgentLog.error("could not make the tools of " + typeName + " refuse their calls either (" + throwable
                    + MissingTypes.hint(throwable) + "): stopping the JVM, the tools must not run unwrapped");
            Runtime.getRuntime().halt(REFUSAL_FAILED_EXIT_CODE);
        }
    }
}
