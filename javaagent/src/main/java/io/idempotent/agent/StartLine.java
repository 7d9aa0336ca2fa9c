package io.idempotent.agent;

import io.idempotent.runtime.internal.RuntimeConfiguration;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The agent's one line at start: which store, which schema mode, how many tools it will wrap. It
 * reads the configuration with the runtime's precedence but does not open the store (the
 * application may still configure it), and counts the tools in every release-gate table
 * ({@code META-INF/idempotent/tools.json}) on the application class path.
 */
final class StartLine {

    /**
     * The runtime's own default. A compile-time constant, so javac copies its value here and the
     * agent never loads the runtime class (the runtime may not be on the agent's class path).
     */
    private static final String DEFAULT_STORE = RuntimeConfiguration.DEFAULT_URL;

    private static final Pattern TOOL_NAME = Pattern.compile("^ {6}\"name\": ", Pattern.MULTILINE);

    private StartLine() {
    }

    static String describe(AgentArguments args) {
        String url = first(args.get("store.url"), System.getProperty("idempotent.store.url"),
                System.getenv("IDEMPOTENT_STORE_URL"), DEFAULT_STORE + " (embedded default)");
        String schema = first(args.get("store.schema"), System.getProperty("idempotent.store.schema"),
                System.getenv("IDEMPOTENT_STORE_SCHEMA"), "create");
        return "started: store " + url.replaceAll("(?i)(password|pwd)=[^;&]*", "$1=***") + ", schema " + schema
                + ", " + countTools() + " tool(s) to wrap (from META-INF/idempotent/tools.json)";
    }

    private static int countTools() {
        int count = 0;
        try {
            Enumeration<URL> tables = ClassLoader.getSystemClassLoader().getResources("META-INF/idempotent/tools.json");
            while (tables.hasMoreElements()) {
                try (InputStream in = tables.nextElement().openStream()) {
                    Matcher m = TOOL_NAME.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    while (m.find()) {
                        count++;
                    }
                }
            }
        } catch (IOException e) {
            AgentLog.error("cannot read META-INF/idempotent/tools.json: " + e);
        }
        return count;
    }

    private static String first(String... values) {
        for (String v : values) {
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return "";
    }
}
