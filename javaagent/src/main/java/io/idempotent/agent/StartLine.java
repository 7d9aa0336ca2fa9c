package io.idempotent.agent;

import io.idempotent.policy.internal.ReleaseGateTable;

/**
 * The agent's one line at start: how many tool methods it really wrapped (and made refuse their
 * calls), beside how many the release-gate tables ({@code META-INF/idempotent/tools.json}) on the
 * application class path list, and the stores the configuration names (or that none is, and the
 * embedded file is therefore used), read by the rules the runtime shares. The runtime opens them,
 * and prints its own line, when the first call comes (the agent must not load runtime classes in
 * premain, and in a Spring Boot jar it cannot).
 */
final class StartLine {

    private StartLine() {
    }

    /**
     * The line, once the listed classes the system class loader can load were loaded: {@code wrapped}
     * tool methods run through the protocol, {@code woven} were woven at build time (the agent left
     * them alone: they run through the protocol already), {@code refusing} refuse every call, {@code listed} are
     * listed, {@code notLoaded} of them in classes the system class loader could not load;
     * {@code stores} as {@code ConfiguredStores.describe()} says them.
     */
    static String describe(int wrapped, int woven, int refusing, int listed, int notLoaded, String stores) {
        return "started: wrapped " + wrapped + " tool method(s), "
                + (woven == 0 ? "" : woven + " woven at build time, ") + listed + " listed in "
                + ReleaseGateTable.RESOURCE
                + (refusing == 0 ? "" : "; " + refusing + " refuse every call (see the ERROR lines)")
                + (notLoaded == 0 ? "" : "; " + notLoaded + " in classes not on the system class path, wrapped when"
                        + " their own class loader loads them (a line each)")
                + "; the runtime uses " + stores + ", opened by the first tool call";
    }
}
