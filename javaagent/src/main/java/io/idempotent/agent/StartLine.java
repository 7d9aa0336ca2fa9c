package io.idempotent.agent;

import io.idempotent.policy.internal.ReleaseGateTable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;

/**
 * The agent's one line at start: how many tools it will wrap, counted in every release-gate table
 * ({@code META-INF/idempotent/tools.json}) on the application class path. It names no store: the
 * runtime resolves its configuration and prints its own line when the first call opens the store
 * (the agent must not load runtime classes in premain, and in a Spring Boot jar it cannot).
 */
final class StartLine {

    private StartLine() {
    }

    static String describe() {
        return "started: " + countTools() + " tool(s) to wrap (from " + ReleaseGateTable.RESOURCE + "); the runtime"
                + " names its store when the first tool call opens it";
    }

    private static int countTools() {
        int count = 0;
        try {
            Enumeration<URL> tables = ClassLoader.getSystemClassLoader().getResources(ReleaseGateTable.RESOURCE);
            while (tables.hasMoreElements()) {
                URL table = tables.nextElement();
                try (InputStream in = table.openStream()) {
                    count += ReleaseGateTable.countTools(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                } catch (IllegalArgumentException e) {
                    AgentLog.error("cannot read the release-gate table " + table + ": " + e.getMessage());
                }
            }
        } catch (IOException e) {
            AgentLog.error("cannot read " + ReleaseGateTable.RESOURCE + ": " + e);
        }
        return count;
    }
}
