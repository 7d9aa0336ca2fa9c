package io.idempotent.agent;

import java.util.ArrayList;
import java.util.List;

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

    /**
     * The binary name of the class of canonical name {@code canonicalName} that {@code loader}
     * has a class file for ({@code a.B.C} is {@code a.B$C} when {@code C} is nested in {@code B}),
     * or {@code null}.
     */
    static String binaryName(String canonicalName, ClassLoader loader) {
        List<String> candidates = new ArrayList<>();
        String name = canonicalName;
        candidates.add(name);
        for (int dot = name.lastIndexOf('.'); dot > 0; dot = name.lastIndexOf('.', dot - 1)) {
            name = name.substring(0, dot) + '$' + name.substring(dot + 1);
            candidates.add(name);
        }
        for (String candidate : candidates) {
            if (loader.getResource(candidate.replace('.', '/') + ".class") != null) {
                return candidate;
            }
        }
        return null;
    }
}
