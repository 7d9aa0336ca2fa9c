package io.idempotent.agent;

import io.idempotent.policy.internal.ReleaseGateTable;

/**
 * The agent's one line at start: how many tool methods it really wrapped (and made refuse their
 * calls), beside how many the release-gate tables ({@code META-INF/idempotent/tools.json}) on the
 * application class path list. It names no store: the runtime resolves its configuration and
 * prints its own line when the first call opens the store (the agent must not load runtime
 * classes in premain, and in a Spring Boot jar it cannot).
 */
final class StartLine {

    private StartLine() {
    }

    /**
     * The line, once the listed classes the system class loader can load were loaded: {@code wrapped}
     * tool methods run through the protocol, {@code woven} were woven at build time (the agent left
     * them alone: they run through the protocol already), {@code refusing} refuse every call, {@code listed} are
     * listed, {@code notLoaded} of them in classes the system class loader could not load.
     */
    static String describe(int wrapped, int woven, int refusing, int listed, int notLoaded) {
        return "started: wrapped " + wrapped + " tool method(s), "
                + (woven == 0 ? "" : woven + " woven at build time, ") + listed + " listed in "
                + ReleaseGateTable.RESOURCE
                + (refusing == 0 ? "" : "; " + refusing + " refuse every call (see the ERROR lines)")
                + (notLoaded == 0 ? "" : "; " + notLoaded + " in classes not on the system class path, wrapped when"
                        + " their own class loader loads them (a line each)")
                + "; the runtime names its store when the first tool call opens it";
    }
}
