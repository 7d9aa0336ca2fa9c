package io.idempotent.runtime;

import io.idempotent.policy.internal.ListedTool;
import io.idempotent.policy.internal.ReleaseGateTable;
import io.idempotent.runtime.agent.WovenAtBuild;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * An immutable snapshot of which listed tools run through the protocol in this JVM: the tool half
 * of a readiness check. A JVM whose listed tools are not all wrapped must not take traffic: the
 * calls of an unwrapped tool are refused, or run without the protocol.
 *
 * <p>(Stand-in of j45b's branch with the signatures of /work/notes/readiness-api.md; j45a's
 * implementation replaces it at the merge.)
 */
public final class ToolReadiness {

    private final boolean agentStarted;
    private final SortedSet<String> listed;
    private final SortedSet<String> wrapped;
    private final SortedSet<String> unwrapped;

    private ToolReadiness(boolean agentStarted, SortedSet<String> listed, SortedSet<String> wrapped,
            SortedSet<String> unwrapped) {
        this.agentStarted = agentStarted;
        this.listed = Collections.unmodifiableSortedSet(listed);
        this.wrapped = Collections.unmodifiableSortedSet(wrapped);
        this.unwrapped = Collections.unmodifiableSortedSet(unwrapped);
    }

    /**
     * Takes the snapshot now, for the tools that the release-gate tables
     * ({@code META-INF/idempotent/tools.json}) visible to the runtime's own class loader and the
     * thread's context class loader list. Each listed class that has not loaded yet is loaded
     * (never initialised: none of its code runs), so that the agent wraps it now; then each tool
     * is wrapped (the agent wrapped it, or it was woven at build time) or unwrapped (loaded
     * without the protocol, refusing every call, or its class cannot load). Never throws.
     */
    public static ToolReadiness current() {
        Set<ClassLoader> loaders = new LinkedHashSet<>();
        loaders.add(loaderOf(ToolReadiness.class.getClassLoader()));
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null) {
            loaders.add(context);
        }
        SortedSet<String> listed = new TreeSet<>();
        SortedSet<String> unwrapped = new TreeSet<>();
        for (ClassLoader loader : loaders) {
            for (ListedTool tool : tables(loader)) {
                listed.add(tool.name());
                if (!wrapped(tool.className(), loader)) {
                    unwrapped.add(tool.name());
                }
            }
        }
        SortedSet<String> wrapped = new TreeSet<>(listed);
        wrapped.removeAll(unwrapped);
        return new ToolReadiness(Agent.started(), listed, wrapped, unwrapped);
    }

    /** Whether the idempotent javaagent is installed and started in this JVM. */
    public boolean agentStarted() {
        return agentStarted;
    }

    /** Listed tool names ("tool" field of tools.json, e.g. "issueRefund"), sorted. */
    public SortedSet<String> listed() {
        return listed;
    }

    /** Listed tools whose calls run through the protocol (agent-wrapped or woven at build time). */
    public SortedSet<String> wrapped() {
        return wrapped;
    }

    /** Listed tools that do not: loaded unwrapped, refusing every call, or whose class does not load. */
    public SortedSet<String> unwrapped() {
        return unwrapped;
    }

    /** {@code unwrapped().isEmpty()} (a JVM that lists no tool is ready). */
    public boolean ready() {
        return unwrapped.isEmpty();
    }

    /** One line for a health detail / log: counts and the unwrapped tools' names, no payloads. */
    public String describe() {
        return listed.size() + " tool(s) listed, " + wrapped.size() + " wrapped" + (unwrapped.isEmpty() ? ""
                : ", not wrapped: " + String.join(", ", unwrapped) + " (start the JVM with"
                        + " -javaagent:idempotent-javaagent.jar, or weave the classes at build time)")
                + (agentStarted ? "" : "; the idempotent javaagent is not started");
    }

    private static ClassLoader loaderOf(ClassLoader loader) {
        return loader != null ? loader : ClassLoader.getSystemClassLoader();
    }

    private static Set<ListedTool> tables(ClassLoader loader) {
        Set<ListedTool> tools = new LinkedHashSet<>();
        try {
            Enumeration<URL> tables = loader.getResources(ReleaseGateTable.RESOURCE);
            while (tables.hasMoreElements()) {
                try (InputStream in = tables.nextElement().openStream()) {
                    tools.addAll(ReleaseGateTable.tools(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
                }
            }
        } catch (IOException | RuntimeException e) {
            // An unreadable table: the calls of its tools are refused (BindingRegistry says why); nothing to count here.
        }
        return tools;
    }

    private static boolean wrapped(String className, ClassLoader loader) {
        Class<?> type;
        try {
            type = Class.forName(className, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
        WovenAtBuild woven = type.getAnnotation(WovenAtBuild.class);
        if (woven != null) {
            return woven.format() == WovenAtBuild.FORMAT;
        }
        String state = Agent.state(type.getName(), type.getClassLoader());
        return "wrapped".equals(state) || "woven".equals(state);
    }

    /** The agent's own account, reached through the system class loader, where -javaagent puts it. */
    private static final class Agent {
        private static final String STATUS = "io.idempotent.agent.AgentStatus";

        static boolean started() {
            Object started = invoke("started", new Class<?>[0]);
            return Boolean.TRUE.equals(started);
        }

        static String state(String className, ClassLoader loader) {
            Object state = invoke("state", new Class<?>[] {String.class, ClassLoader.class}, className, loader);
            return state instanceof String s ? s : null;
        }

        private static Object invoke(String name, Class<?>[] types, Object... args) {
            try {
                Class<?> status = Class.forName(STATUS, false, ClassLoader.getSystemClassLoader());
                Method method = status.getMethod(name, types);
                return method.invoke(null, args);
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                return null;
            }
        }
    }
}
