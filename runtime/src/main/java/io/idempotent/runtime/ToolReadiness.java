package io.idempotent.runtime;

import io.idempotent.runtime.internal.readiness.ToolStates;
import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which of the tools that the application lists in its release-gate tables
 * ({@code META-INF/idempotent/tools.json}) run through the protocol in this JVM: the view a
 * readiness check (a Spring Boot {@code HealthIndicator}, a MicroProfile Health check) reports. A
 * tool runs through the protocol when the javaagent wrapped it or the build plugin wove it; one
 * whose class loaded without either, whose calls are refused, or whose class does not load, is
 * unwrapped, and a JVM with an unwrapped tool is not ready. An immutable snapshot.
 */
public final class ToolReadiness {

    private final boolean agentStarted;
    private final SortedSet<String> listed;
    private final SortedSet<String> wrapped;
    private final SortedSet<String> unwrapped;

    private ToolReadiness(boolean agentStarted, SortedSet<String> wrapped, SortedSet<String> unwrapped) {
        this.agentStarted = agentStarted;
        this.wrapped = Collections.unmodifiableSortedSet(new TreeSet<>(wrapped));
        this.unwrapped = Collections.unmodifiableSortedSet(new TreeSet<>(unwrapped));
        TreeSet<String> all = new TreeSet<>(wrapped);
        all.addAll(unwrapped);
        this.listed = Collections.unmodifiableSortedSet(all);
    }

    /**
     * Takes the snapshot now, for the tools that the tables visible to the runtime's class loader
     * and the thread's context class loader list. A listed class that has not loaded yet is loaded
     * (not initialised: none of its code runs), so that the agent wraps it now rather than at its
     * first call. Never throws: what cannot be judged counts as unwrapped.
     */
    public static ToolReadiness current() {
        ToolStates states = ToolStates.now();
        return new ToolReadiness(states.agentStarted(), states.wrapped(), states.unwrapped());
    }

    /** Whether the idempotent javaagent is installed and started in this JVM. */
    public boolean agentStarted() {
        return agentStarted;
    }

    /** The names of the listed tools, sorted. */
    public SortedSet<String> listed() {
        return listed;
    }

    /** The listed tools whose calls run through the protocol (wrapped by the agent or woven at build time). */
    public SortedSet<String> wrapped() {
        return wrapped;
    }

    /** The listed tools that do not: loaded unwrapped, refusing every call, or whose class does not load. */
    public SortedSet<String> unwrapped() {
        return unwrapped;
    }

    /** Whether every listed tool runs through the protocol (true when none is listed). */
    public boolean ready() {
        return unwrapped.isEmpty();
    }

    /** One line for a health check's detail or a log: the counts and the unwrapped tools' names. */
    public String describe() {
        return (ready() ? "ready: " : "not ready: ") + wrapped.size() + " of " + listed.size()
                + " listed tool(s) run through the protocol"
                + (unwrapped.isEmpty() ? "" : "; unwrapped: " + String.join(", ", unwrapped)
                        + " (see the ERROR lines of the runtime and the [idempotent-agent] lines)")
                + (agentStarted ? "" : "; the idempotent javaagent is not installed (-javaagent)");
    }

    @Override
    public String toString() {
        return "ToolReadiness[" + describe() + "]";
    }
}
