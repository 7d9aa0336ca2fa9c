package io.idempotent.build;

import io.idempotent.build.weaving.ToolAdvice;
import io.idempotent.build.weaving.ToolMethods;
import io.idempotent.build.weaving.WovenMark;
import io.idempotent.policy.internal.BindingNames;
import io.idempotent.policy.internal.ListedTool;
import io.idempotent.policy.internal.ReleaseGateTable;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import net.bytebuddy.build.Plugin;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.pool.TypePool;

/**
 * Weaves the agent's advice into every tool method at build time, so that the class itself runs
 * its tools only through the runtime, in every JVM that loads it, with or without
 * {@code -javaagent}. A Byte Buddy build {@link Plugin}: apply it with Byte Buddy's Maven plugin
 * ({@code net.bytebuddy:byte-buddy-maven-plugin}, goal {@code transform}) or Gradle plugin, after
 * the idempotent-processor has compiled the classes (it needs their bindings and release-gate table).
 *
 * <p>The tool methods are those the release-gate table ({@code META-INF/idempotent/tools.json} in
 * the classes folder the build plugin hands in) lists and those annotated {@code @IdempotentTool},
 * by the agent's own rule. A woven class is marked ({@code @WovenAtBuild}): it is not woven twice,
 * and the agent leaves it alone. The build fails, naming the class and the fix, when a tool class
 * has no generated binding (the processor did not run), when idempotent-runtime is not on the
 * compile class path, or when the table lists a tool the class has no method for.
 */
public final class IdempotentPlugin implements Plugin {

    private static final String VERSION_RESOURCE = "idempotent-build.properties";

    private final Map<String, List<ListedTool>> listed;
    private final int format;
    private final String version;

    /** A plugin that finds tools by their annotation only (no classes folder to read the table from). */
    public IdempotentPlugin() {
        this(null);
    }

    /**
     * The plugin Byte Buddy's Maven and Gradle plugins create: {@code classes} is the folder of the
     * class files being transformed, whose release-gate table lists the tools.
     */
    public IdempotentPlugin(File classes) {
        this(classes, WovenMark.FORMAT);
    }

    /** For tests: a plugin that marks the classes with another weave format, as an older plugin would. */
    IdempotentPlugin(File classes, int format) {
        this.listed = classes == null ? Map.of() : read(classes.toPath().resolve(ReleaseGateTable.RESOURCE));
        this.format = format;
        this.version = ownVersion();
    }

    @Override
    public boolean matches(TypeDescription target) {
        return ToolMethods.declaresTools(target, listedFor(target)) && !WovenMark.isWoven(target);
    }

    @Override
    public DynamicType.Builder<?> apply(DynamicType.Builder<?> builder, TypeDescription type,
            ClassFileLocator classFileLocator) {
        ToolMethods tools = ToolMethods.of(type, listedFor(type));
        for (ListedTool tool : tools.unmatched()) {
            throw new IllegalStateException(type.getName() + " has no method " + tool.method() + ", which the"
                    + " release-gate table lists as tool " + tool.name() + ": the class changed after the processor"
                    + " ran. Rebuild it (mvn clean verify) so that the idempotent-processor writes the table anew");
        }
        TypePool.Resolution mark = TypePool.Default.of(classFileLocator).describe(WovenMark.ANNOTATION);
        if (!mark.isResolved()) {
            throw new IllegalStateException(type.getName() + " has @IdempotentTool methods, but"
                    + " io.idempotent:idempotent-runtime is not on the compile class path of the build, or is older"
                    + " than idempotent-build " + version + " (it has no " + WovenMark.ANNOTATION + "). Add"
                    + " idempotent-runtime of the same version as idempotent-build to the project's dependencies");
        }
        String binding = BindingNames.bindingClassName(type.getName(),
                type.getPackage() == null ? "" : type.getPackage().getName());
        if (!located(classFileLocator, binding)) {
            throw new IllegalStateException(type.getName() + " has @IdempotentTool methods but no generated binding "
                    + binding + ": it was compiled without the idempotent-processor annotation processor. Add"
                    + " io.idempotent:idempotent-processor to the compiler's annotationProcessorPaths (Maven) or"
                    + " annotationProcessor configuration (Gradle), before this transformation");
        }
        return builder.visit(ToolAdvice.advice(classFileLocator).on(tools.wrapped()))
                .annotateType(WovenMark.mark(mark.resolve(), format, version));
    }

    @Override
    public void close() {
        // Holds no resource: the table was read when the plugin was made.
    }

    private List<ListedTool> listedFor(TypeDescription type) {
        String name = ToolMethods.canonicalName(type);
        return name == null ? List.of() : listed.getOrDefault(name, List.of());
    }

    private static boolean located(ClassFileLocator locator, String className) {
        try {
            return locator.locate(className).isResolved();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot look for the generated binding " + className, e);
        }
    }

    private static Map<String, List<ListedTool>> read(Path table) {
        if (!Files.isRegularFile(table)) {
            return Map.of();
        }
        Map<String, List<ListedTool>> byClass = new HashMap<>();
        try {
            for (ListedTool tool : ReleaseGateTable.tools(Files.readString(table, StandardCharsets.UTF_8))) {
                byClass.computeIfAbsent(tool.className(), c -> new ArrayList<>()).add(tool);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the release-gate table " + table, e);
        }
        return byClass;
    }

    private static String ownVersion() {
        Properties properties = new Properties();
        try (InputStream in = IdempotentPlugin.class.getResourceAsStream(VERSION_RESOURCE)) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            // The version only appears in messages and the mark.
        }
        return properties.getProperty("version", "unknown");
    }
}
