package io.idempotent.runtime.internal.readiness;

import java.lang.reflect.Method;

/**
 * The javaagent's own account of what it wrapped, read by reflection: the agent's classes are on
 * the system class path whenever {@code -javaagent} is given, which every application class
 * loader (Spring Boot's, Quarkus's) delegates to, while the runtime may live in a loader the agent
 * never sees. Only java types cross.
 */
final class AgentView {

    private static final String STATUS_CLASS = "io.idempotent.agent.AgentStatus";

    private final Method state;
    private final boolean started;

    private AgentView(Method state, boolean started) {
        this.state = state;
        this.started = started;
    }

    /** The agent of this JVM, or a view that reports it absent. */
    static AgentView find() {
        try {
            Class<?> status = Class.forName(STATUS_CLASS, false, ClassLoader.getSystemClassLoader());
            boolean started = (Boolean) status.getMethod("started").invoke(null);
            return new AgentView(status.getMethod("state", String.class, ClassLoader.class), started);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return new AgentView(null, false);
        }
    }

    boolean started() {
        return started;
    }

    /** "wrapped", "woven", "refusing" or null (not transformed by the agent, or no agent). */
    String state(Class<?> type) {
        if (state == null) {
            return null;
        }
        try {
            return (String) state.invoke(null, type.getName(), type.getClassLoader());
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
