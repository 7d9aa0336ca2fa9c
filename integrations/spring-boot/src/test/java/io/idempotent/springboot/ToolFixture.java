package io.idempotent.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.build.IdempotentPlugin;
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.ToolProvider;
import net.bytebuddy.build.Plugin;
import net.bytebuddy.dynamic.ClassFileLocator;

/**
 * An application's tool class as a user's build makes it: compiled with the idempotent-processor
 * (which lists it in META-INF/idempotent/tools.json), and, when asked, woven at build time by
 * idempotent-build's plugin, on a class loader of its own, as an application's classes are.
 */
final class ToolFixture {

    static final String SOURCE = """
            package shop;
            import io.idempotent.annotations.IdempotentTool;
            import io.idempotent.annotations.Retry;
            public class RefundTools {
                @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
                        retry = Retry.SAFE)
                public String issueRefund(String invoiceId, long amountCents) {
                    return "refund of " + amountCents + " for " + invoiceId;
                }
            }
            """;

    private ToolFixture() {
    }

    /** The class folder of {@code shop.RefundTools} compiled with the processor, in {@code dir}. */
    static Path compiled(Path dir) throws Exception {
        Path source = dir.resolve("src/shop/RefundTools.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, SOURCE);
        Path classes = dir.resolve("classes");
        // Only what a tool's build needs: javac then scans two jars, not the whole test class path.
        String classPath = jarOf("io.idempotent.annotations.IdempotentTool") + File.pathSeparator
                + jarOf("io.idempotent.runtime.IdempotentRuntime");
        int exit = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), "-cp",
                classPath, "-processorpath", jarOf("io.idempotent.processor.IdempotentToolProcessor"),
                source.toString());
        assertThat(exit).as("javac exit code").isZero();
        assertThat(classes.resolve("META-INF/idempotent/tools.json")).content().contains("issueRefund");
        return classes;
    }

    /** The same class folder woven at build time, as byte-buddy-maven-plugin with IdempotentPlugin weaves it. */
    static Path woven(Path dir) throws Exception {
        Path classes = compiled(dir);
        Path woven = dir.resolve("woven");
        Plugin.Engine.Summary summary = new Plugin.Engine.Default()
                .with(ClassFileLocator.ForClassLoader.of(ToolFixture.class.getClassLoader()))
                .apply(new Plugin.Engine.Source.ForFolder(classes.toFile()),
                        new Plugin.Engine.Target.ForFolder(woven.toFile()),
                        List.of(new Plugin.Factory.Simple(new IdempotentPlugin(classes.toFile()))));
        assertThat(summary.getFailed()).isEmpty();
        assertThat(summary.getTransformed()).hasSize(1);
        return woven;
    }

    /** The jar (or class folder) that holds {@code className} on the test class path. */
    private static String jarOf(String className) throws Exception {
        return Path.of(Class.forName(className, false, ToolFixture.class.getClassLoader()).getProtectionDomain()
                .getCodeSource().getLocation().toURI()).toString();
    }

    /** The application's class loader over {@code classes}. */
    static URLClassLoader loader(Path classes) throws Exception {
        File folder = classes.toFile();
        return new URLClassLoader(new URL[] {folder.toURI().toURL()}, ToolFixture.class.getClassLoader());
    }
}
