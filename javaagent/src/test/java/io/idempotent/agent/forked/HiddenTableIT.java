package io.idempotent.agent.forked;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listed tool class loaded by a class loader that does not show the release-gate tables (an
 * application's own loader that answers no resources), with no annotation to find it by: the
 * agent read the tables in the application's packaging at start, so it still wraps the class
 * instead of letting it load unwrapped.
 */
class HiddenTableIT {

    @TempDir
    Path dir;

    @Test
    void aListedClassWhoseLoaderHidesTheTableIsStillWrapped() throws Exception {
        Path src = dir.resolve("src");
        Path app = dir.resolve("app");
        Path tools = dir.resolve("tools");
        write(src.resolve("com/example/HiddenTools.java"), """
                package com.example;
                public class HiddenTools {
                    public String lookup(String id) {
                        return id;
                    }
                }
                """);
        write(src.resolve("com/example/HidingMain.java"), """
                package com.example;
                import java.net.URL;
                import java.net.URLClassLoader;
                import java.util.Collections;
                import java.util.Enumeration;
                public class HidingMain {
                    public static void main(String[] args) throws Exception {
                        URL tools = java.nio.file.Path.of(args[0]).toUri().toURL();
                        // Child-first for its own classes, and no resources at all: it shows no table.
                        ClassLoader hiding = new URLClassLoader(new URL[] {tools}, HidingMain.class.getClassLoader()) {
                            @Override
                            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                                if (name.equals("com.example.HiddenTools")) {
                                    synchronized (getClassLoadingLock(name)) {
                                        Class<?> c = findLoadedClass(name);
                                        return c != null ? c : findClass(name);
                                    }
                                }
                                return super.loadClass(name, resolve);
                            }
                            @Override
                            public Enumeration<URL> getResources(String name) {
                                return Collections.emptyEnumeration();
                            }
                            @Override
                            public URL getResource(String name) {
                                return name.endsWith(".class") ? super.getResource(name) : null;
                            }
                        };
                        Class<?> type = Class.forName("com.example.HiddenTools", false, hiding);
                        System.out.println("loaded by " + (type.getClassLoader() == hiding ? "the hiding loader" : "another"));
                    }
                }
                """);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac.run(null, null, null, "-d", tools.toString(),
                src.resolve("com/example/HiddenTools.java").toString())).isZero();
        assertThat(javac.run(null, null, null, "-d", app.toString(),
                src.resolve("com/example/HidingMain.java").toString())).isZero();
        // The table is on the class path (the application's packaging); the tool class only in the hiding loader.
        write(app.resolve("META-INF/idempotent/tools.json"), "{\"tools\": [{\"name\": \"lookup\", \"class\":"
                + " \"com.example.HiddenTools\", \"method\": \"lookup(java.lang.String id)\"}]}");

        Path log = dir.resolve("run.log");
        Process process = new ProcessBuilder(Jdk.current().java().toString(), "-javaagent:" + ForkedProbe.agentJar(),
                "-cp", app + File.pathSeparator + ForkedProbe.applicationClassPath(), "com.example.HidingMain",
                tools.toString()).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = Files.readString(log, StandardCharsets.UTF_8);

        assertThat(output).as("output").contains("loaded by the hiding loader")
                .contains("[idempotent-agent] com.example.HiddenTools: wrapped 1 tool method(s)");
    }

    private static void write(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
