package io.idempotent.agent;

import java.io.File;
import java.io.IOException;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Whether the application has the runtime, judged at start-up, before any application class
 * loader exists: on the system class path, or packed into the application's Spring Boot jar
 * ({@code Spring-Boot-Lib}, normally {@code BOOT-INF/lib/}), where only Boot's own loader will
 * see it later.
 */
final class RuntimeVisibility {

    private RuntimeVisibility() {
    }

    static boolean onApplicationClassPath() {
        if (ClassLoader.getSystemClassLoader().getResource(AgentInstaller.DISPATCHER_RESOURCE) != null) {
            return true;
        }
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (entry.endsWith(".jar") || entry.endsWith(".war")) {
                if (inBootJar(new File(entry))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code file} is a Spring Boot jar whose libraries include idempotent-runtime. */
    static boolean inBootJar(File file) {
        if (!file.isFile()) {
            return false;
        }
        try (JarFile jar = new JarFile(file)) {
            Manifest manifest = jar.getManifest();
            String lib = manifest == null ? null : manifest.getMainAttributes().getValue(new Attributes.Name(
                    "Spring-Boot-Lib"));
            if (lib == null) {
                return false;
            }
            String dir = lib.endsWith("/") ? lib : lib + "/";
            return jar.stream().anyMatch(e -> e.getName().startsWith(dir + "idempotent-runtime-")
                    && e.getName().endsWith(".jar") && e.getName().indexOf('/', dir.length()) < 0);
        } catch (IOException | SecurityException e) {
            AgentLog.error("cannot look into " + file + " for idempotent-runtime: " + e);
            return false;
        }
    }
}
