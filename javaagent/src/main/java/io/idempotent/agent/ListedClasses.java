package io.idempotent.agent;

import io.idempotent.policy.internal.BinaryNames;

/**
 * Loads, at start, the classes that the release-gate tables on the system class path list, so
 * that the start line counts the tool methods really wrapped (or refused), not the ones the
 * agent means to wrap. A class is loaded, not initialised: none of its code runs. A class the
 * system class loader cannot load (a Spring Boot jar's nested classes) is wrapped when its own
 * class loader loads it, with a line of its own.
 */
final class ListedClasses {

    private ListedClasses() {
    }

    /** Loads every listed class it can; returns how many listed tools are in classes it could not load. */
    static int load(ListedTools listed) {
        ClassLoader system = ClassLoader.getSystemClassLoader();
        int notLoaded = 0;
        for (String className : listed.classNames()) {
            String binaryName = binaryName(className, system);
            boolean loaded = false;
            if (binaryName != null) {
                try {
                    Class.forName(binaryName, false, system);
                    loaded = true;
                } catch (ClassNotFoundException | LinkageError e) {
                    AgentLog.error("cannot load " + binaryName + ", whose tools the release-gate table lists: " + e
                            + ". They are not wrapped, and no call of them can run until the class loads");
                }
            }
            if (!loaded) {
                notLoaded += listed.of(className).size();
            }
        }
        return notLoaded;
    }

    /** The binary name of the listed class {@code canonicalName} in {@code loader}, or {@code null} ({@link BinaryNames}). */
    static String binaryName(String canonicalName, ClassLoader loader) {
        return BinaryNames.of(canonicalName, loader);
    }
}
