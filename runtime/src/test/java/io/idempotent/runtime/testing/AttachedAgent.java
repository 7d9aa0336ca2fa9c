package io.idempotent.runtime.testing;

import com.sun.tools.attach.VirtualMachine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * Attaches the built agent jar to this test JVM (its {@code Agent-Class}), once, with a fresh
 * embedded H2 store: the in-process tier for tests that run real frameworks with the agent. The
 * JVM needs {@code -Djdk.attach.allowAttachSelf=true}; the jar's path comes from the system
 * property {@code build.test.agentJar} (the build sets it to the reactor's javaagent jar).
 */
public final class AttachedAgent {

    private static String storeUrl;

    private AttachedAgent() {
    }

    /**
     * Attaches the agent unless it already is, and returns the store URL it was given.
     *
     * @throws IllegalStateException if the agent jar is missing (build it: {@code mvn verify})
     */
    public static synchronized String attach() throws Exception {
        if (storeUrl != null) {
            return storeUrl;
        }
        String jar = System.getProperty("build.test.agentJar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("the agent jar " + jar + " is not built; run mvn verify (the javaagent"
                    + " module packages it before this module's tests)");
        }
        Path dir = Files.createTempDirectory("idempotent-it");
        String url = "jdbc:h2:file:" + dir.resolve("store-" + UUID.randomUUID()).toAbsolutePath();
        VirtualMachine vm = VirtualMachine.attach(String.valueOf(ProcessHandle.current().pid()));
        try {
            vm.loadAgent(jar, "store.url=" + url);
        } finally {
            vm.detach();
        }
        storeUrl = url;
        return url;
    }
}
