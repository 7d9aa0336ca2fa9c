package io.idempotent.agent;

import io.idempotent.policy.internal.ListedTool;
import io.idempotent.policy.internal.ReleaseGateTable;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;

/**
 * How the application is packaged, judged in premain, before any application class loader
 * exists: a plain class path (a shaded or uber jar is one), a Spring Boot jar or war
 * ({@code Spring-Boot-Classes} and the jars in {@code Spring-Boot-Lib}, normally
 * {@code BOOT-INF/classes/} and {@code BOOT-INF/lib/}) or a Quarkus fast-jar
 * ({@code quarkus-run.jar} beside {@code app/} and {@code lib/main/}). It finds the release-gate
 * tables and the runtime where the application's class loader will, so that the start line counts
 * every listed tool and {@code failOnMissingRuntime} looks where the runtime really is.
 */
final class Packaging {

    /** The Main-Class of a Quarkus fast-jar's {@code quarkus-run.jar}. */
    static final String QUARKUS_ENTRY = "io.quarkus.bootstrap.runner.QuarkusEntryPoint";

    private final String name;
    private final List<String> places = new ArrayList<>();
    private final Set<ListedTool> listed = new LinkedHashSet<>();
    private boolean runtime;

    private Packaging(String name) {
        this.name = name;
    }

    /** The packaging of this JVM's application, from {@code java.class.path}. */
    static Packaging detect() {
        ClassLoader system = ClassLoader.getSystemClassLoader();
        Packaging packaging = null;
        // A launcher jar is the class path's first entry (java -jar app.jar, or -cp app.jar Launcher): only it is
        // opened, so that a long plain class path costs the start nothing.
        String first = System.getProperty("java.class.path", "").split(File.pathSeparator)[0];
        File file = new File(first);
        if (file.isFile() && (first.endsWith(".jar") || first.endsWith(".war"))) {
            packaging = nested(file);
        }
        if (packaging == null) {
            packaging = new Packaging("a plain class path (a shaded or uber jar is one)");
        }
        packaging.places.add(0, "the system class path");
        packaging.listed.addAll(ListedTools.of(system).all());
        packaging.runtime |= system.getResource(AgentInstaller.DISPATCHER_RESOURCE) != null;
        return packaging;
    }

    /** Says which packaging it is, e.g. {@code a Spring Boot jar /srv/app.jar}. */
    String name() {
        return name;
    }

    /** Where it looked for the tables and the runtime. */
    String places() {
        return String.join(", ", places);
    }

    /** Every tool the tables in the packaging list, each once. */
    List<ListedTool> listed() {
        return List.copyOf(listed);
    }

    /** Whether idempotent-runtime is where the application's class loader will look. */
    boolean hasRuntime() {
        return runtime;
    }

    /** The Spring Boot or Quarkus packaging whose launcher jar is {@code file}, or null. */
    private static Packaging nested(File file) {
        try (JarFile jar = new JarFile(file)) {
            Manifest manifest = jar.getManifest();
            Attributes main = manifest == null ? null : manifest.getMainAttributes();
            if (main == null) {
                return null;
            }
            String lib = main.getValue("Spring-Boot-Lib");
            if (lib != null) {
                return boot(file, jar, dir(main.getValue("Spring-Boot-Classes"), "BOOT-INF/classes/"), dir(lib, lib));
            }
            if (QUARKUS_ENTRY.equals(main.getValue(Attributes.Name.MAIN_CLASS))) {
                return quarkus(file.getAbsoluteFile().getParentFile());
            }
            return null;
        } catch (IOException | SecurityException e) {
            AgentLog.error("cannot look into " + file + " for the application's tools and idempotent-runtime: " + e);
            return null;
        }
    }

    private static Packaging boot(File file, JarFile jar, String classes, String lib) throws IOException {
        Packaging boot = new Packaging("a Spring Boot " + (file.getName().endsWith(".war") ? "war " : "jar ") + file);
        boot.places.add(classes + " and the jars in " + lib + " of " + file.getName());
        JarEntry table = jar.getJarEntry(classes + ReleaseGateTable.RESOURCE);
        if (table != null) {
            try (InputStream in = jar.getInputStream(table)) {
                boot.read(in, file + "!/" + table.getName());
            }
        }
        boot.runtime |= jar.getJarEntry(classes + AgentInstaller.DISPATCHER_RESOURCE) != null;
        for (JarEntry entry : (Iterable<JarEntry>) jar.stream()::iterator) {
            String entryName = entry.getName();
            if (entryName.startsWith(lib) && entryName.endsWith(".jar") && entryName.indexOf('/', lib.length()) < 0) {
                try (JarInputStream nested = new JarInputStream(jar.getInputStream(entry))) {
                    boot.scan(nested, file + "!/" + entryName);
                }
            }
        }
        return boot;
    }

    private static Packaging quarkus(File app) {
        Packaging quarkus = new Packaging("a Quarkus fast-jar " + app);
        quarkus.places.add("the jars in app/ and lib/main/ of " + app);
        for (String dir : List.of("app", "lib/main")) {
            File[] jars = new File(app, dir).listFiles((d, n) -> n.endsWith(".jar"));
            for (File file : jars == null ? new File[0] : jars) {
                try (JarFile jar = new JarFile(file)) {
                    JarEntry table = jar.getJarEntry(ReleaseGateTable.RESOURCE);
                    if (table != null) {
                        try (InputStream in = jar.getInputStream(table)) {
                            quarkus.read(in, file + "!/" + table.getName());
                        }
                    }
                    quarkus.runtime |= jar.getJarEntry(AgentInstaller.DISPATCHER_RESOURCE) != null;
                } catch (IOException | SecurityException e) {
                    AgentLog.error("cannot look into " + file + " for the application's tools and idempotent-runtime: "
                            + e);
                }
            }
        }
        return quarkus;
    }

    /** Reads one jar nested in another, entry by entry, for a table and the runtime. */
    private void scan(JarInputStream nested, String where) throws IOException {
        for (JarEntry entry = nested.getNextJarEntry(); entry != null; entry = nested.getNextJarEntry()) {
            if (entry.getName().equals(ReleaseGateTable.RESOURCE)) {
                read(nested, where + "!/" + entry.getName());
            } else if (entry.getName().equals(AgentInstaller.DISPATCHER_RESOURCE)) {
                runtime = true;
            }
        }
    }

    private void read(InputStream in, String where) {
        try {
            listed.addAll(ReleaseGateTable.tools(in));
        } catch (IOException | IllegalArgumentException e) {
            AgentLog.error("cannot read the release-gate table " + where + ": " + e.getMessage()
                    + ". The tools it lists are wrapped only if their annotation can be resolved");
        }
    }

    private static String dir(String value, String fallback) {
        String dir = value == null || value.isBlank() ? fallback : value.strip();
        return dir.endsWith("/") ? dir : dir + "/";
    }
}
