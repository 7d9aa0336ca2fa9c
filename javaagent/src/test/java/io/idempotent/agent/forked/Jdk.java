package io.idempotent.agent.forked;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A JDK the forked JVMs run on: the one running the build, and the Temurin 25 installed beside it. */
record Jdk(String label, Path java) {

    /** The JDKs of the forked tests. A missing Temurin 25 fails the build: the agent must be proven on it. */
    static List<Jdk> all() {
        Jdk current = new Jdk("java " + Runtime.version().feature(),
                Path.of(System.getProperty("java.home"), "bin", "java"));
        String home = System.getProperty("build.jdk25.home", "");
        Path java25 = Path.of(home, "bin", "java");
        if (home.isBlank() || !Files.isExecutable(java25)) {
            throw new IllegalStateException("the forked agent tests also run on JDK 25, but there is no "
                    + java25 + "; install Temurin 25 or point -Djdk25.home at one");
        }
        return List.of(current, new Jdk("java 25", java25));
    }

    static Jdk current() {
        return all().get(0);
    }

    @Override
    public String toString() {
        return label;
    }
}
