package io.idempotent.runtime.internal.readiness;

import io.idempotent.policy.internal.BinaryNames;
import io.idempotent.policy.internal.ClassPathTables;
import io.idempotent.policy.internal.ListedTool;
import io.idempotent.policy.internal.ReleaseGateTable;
import io.idempotent.runtime.ToolReadiness;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Judges, for {@link ToolReadiness}, each tool the visible release-gate tables list: wrapped when
 * the agent wrapped its class or the build plugin wove it, unwrapped otherwise. A listed class
 * found loaded without the protocol is an ERROR naming it, once per class.
 */
public final class ToolStates {

    private static final System.Logger LOG = System.getLogger(ToolReadiness.class.getName());
    private static final String WOVEN_MARK = "io.idempotent.runtime.agent.WovenAtBuild";
    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

    private final boolean agentStarted;
    private final SortedSet<String> wrapped = new TreeSet<>();
    private final SortedSet<String> unwrapped = new TreeSet<>();

    private ToolStates(boolean agentStarted) {
        this.agentStarted = agentStarted;
    }

    /** The states now, never throwing: a tool whose state cannot be judged counts as unwrapped. */
    public static ToolStates now() {
        AgentView agent = AgentView.find();
        ToolStates states = new ToolStates(agent.started());
        for (ClassLoader loader : loaders()) {
            for (ListedTool tool : listed(loader)) {
                String problem = states.problem(tool, loader, agent);
                if (problem == null) {
                    states.wrapped.add(tool.name());
                } else {
                    states.unwrapped.add(tool.name());
                    if (REPORTED.add(tool.className() + "@" + System.identityHashCode(loader))) {
                        LOG.log(System.Logger.Level.ERROR, "tool " + tool.name() + " of " + tool.className() + " "
                                + problem);
                    }
                }
            }
        }
        states.wrapped.removeAll(states.unwrapped);
        return states;
    }

    public boolean agentStarted() {
        return agentStarted;
    }

    public SortedSet<String> wrapped() {
        return wrapped;
    }

    public SortedSet<String> unwrapped() {
        return unwrapped;
    }

    /** Why {@code tool} does not run through the protocol, or null when it does. */
    private String problem(ListedTool tool, ClassLoader loader, AgentView agent) {
        String binary = BinaryNames.of(tool.className(), loader);
        if (binary == null) {
            return "has no class file on the class path that lists it: its calls cannot run";
        }
        Class<?> type;
        try {
            type = Class.forName(binary, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return "cannot be loaded (" + e + "): its calls cannot run";
        }
        String state = agent.state(type);
        if ("refusing".equals(state)) {
            return "refuses every call: the agent could not wrap it (the [idempotent-agent] ERROR lines say why)";
        }
        if (state != null || woven(type)) {
            return null;
        }
        return agentStarted
                ? "was loaded without the protocol although the idempotent agent runs (it was loaded before the agent"
                        + " started, or by a class loader the agent could not read): its calls run unwrapped. "
                        + Unwrapped.ADVICE
                : "was loaded without the protocol: its calls run unwrapped. " + Unwrapped.ADVICE;
    }

    private static boolean woven(Class<?> type) {
        try {
            for (java.lang.annotation.Annotation annotation : type.getDeclaredAnnotations()) {
                if (annotation.annotationType().getName().equals(WOVEN_MARK)) {
                    return true;
                }
            }
        } catch (RuntimeException | LinkageError e) {
            // An annotation that cannot be read: not the mark.
        }
        return false;
    }

    /** The runtime's own loader and the thread's context loader, each once. */
    private static List<ClassLoader> loaders() {
        Set<ClassLoader> loaders = new LinkedHashSet<>();
        ClassLoader own = ToolStates.class.getClassLoader();
        loaders.add(own != null ? own : ClassLoader.getSystemClassLoader());
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null) {
            loaders.add(context);
        }
        return new ArrayList<>(loaders);
    }

    /**
     * The tools the tables {@code loader} sees list, up to the first that cannot be read (a table
     * that cannot be read lists none; the runtime's first call says so). Each probe logs that
     * table again, but reads the tables only once per loader ({@link ClassPathTables}).
     */
    private static List<ListedTool> listed(ClassLoader loader) {
        List<ListedTool> tools = new ArrayList<>();
        try {
            ClassPathTables tables = ClassPathTables.of(loader);
            Exception failure = tables.unlisted();
            for (ClassPathTables.Table table : tables.tables()) {
                if (failure == null) {
                    failure = table.failure();
                    tools.addAll(table.tools());
                }
            }
            if (failure != null) {
                unreadable(loader, failure);
            }
        } catch (RuntimeException e) {
            unreadable(loader, e);
        }
        return tools;
    }

    private static void unreadable(ClassLoader loader, Exception e) {
        LOG.log(System.Logger.Level.ERROR, "cannot read " + ReleaseGateTable.RESOURCE + " through " + loader + ": "
                + e.getClass().getSimpleName() + "; the readiness check counts only the tools it could read");
    }
}
