package io.idempotent.agent;

import io.idempotent.policy.internal.ReleaseGateTable;

/**
 * The agent's one line at start: how many tool methods it really wrapped (and made refuse their
 * calls), beside how many the release-gate tables ({@code META-INF/idempotent/tools.json}) in the
 * application's packaging list ({@link Packaging}: the class path, a Spring Boot jar's nested
 * classes and jars, a Quarkus fast-jar's {@code app/} and {@code lib/main/}), and the stores the
 * configuration names (or that none is, and the embedded file is therefore used), read by the
 * rules the runtime shares. Tools in classes that only the application's own class loader can
 * load (Boot's, Quarkus's) are wrapped when it loads them, each class with a line of its own; the
 * start line says so instead of counting them as wrapped 0. The runtime opens the stores, and
 * prints its own line, when the first call comes (the agent must not load runtime classes in
 * premain, and in a Spring Boot jar it cannot).
 */
final class StartLine {

    private StartLine() {
    }

    /**
     * The line, once the listed classes the system class loader can load were loaded: {@code wrapped}
     * tool methods run through the protocol, {@code woven} were woven at build time (the agent left
     * them alone: they run through the protocol already), {@code refusing} refuse every call, {@code listed} are
     * listed in {@code packaging}, {@code notLoaded} of them in classes the system class loader could not load;
     * {@code stores} as {@code ConfiguredStores.describe()} says them.
     */
    static String describe(int wrapped, int woven, int refusing, int listed, int notLoaded, String stores,
            String packaging) {
        String refused = refusing == 0 ? "" : "; " + refusing + " refuse every call (see the ERROR lines)";
        String tail = "; the runtime uses " + stores + ", opened by the first tool call";
        if (notLoaded == 0) {
            return "started: wrapped " + wrapped + " tool method(s), "
                    + (woven == 0 ? "" : woven + " woven at build time, ") + listed + " listed in "
                    + ReleaseGateTable.RESOURCE + refused + tail;
        }
        return "started: " + (wrapped == 0 ? "" : "wrapped " + wrapped + " tool method(s) now, ")
                + (woven == 0 ? "" : woven + " woven at build time, ") + "will wrap " + notLoaded
                + " tool method(s) when the application's class loader loads their classes (a line each); "
                + listed + " listed in " + ReleaseGateTable.RESOURCE + " in " + packaging + refused + tail;
    }
}
