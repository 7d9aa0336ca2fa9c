package io.idempotent.agent;

/**
 * The agent is installed once per JVM. Given twice ({@code -javaagent} repeated, or also in
 * {@code JAVA_TOOL_OPTIONS}, or attached to a JVM that started with it), a second installation
 * would wrap every tool a second time: the inner wrapper then meets the outer one's claim and
 * every call answers "in progress". The first installation marks the JVM with a system property
 * that names this process; the marker is JVM-wide, so it holds even for a copy of the agent
 * loaded by another class loader, and one that names another process (copied into this JVM's
 * properties from another's) is not taken for an installation.
 */
final class SingleInstallation {

    /** The marker (outside the {@code idempotent.} configuration keys, which the runtime checks). */
    static final String PROPERTY = "io.idempotent.agent.installed";

    private SingleInstallation() {
    }

    /**
     * Claims the JVM for this installation: true for the first; false, after one warning line,
     * for every later one, which must then do nothing.
     */
    static boolean claim() {
        String mine = "pid " + ProcessHandle.current().pid();
        String first;
        synchronized (SingleInstallation.class) {
            first = System.getProperty(PROPERTY);
            if (first == null || !first.equals(mine)) {
                System.setProperty(PROPERTY, mine);
                return true;
            }
        }
        AgentLog.warning("the agent is already installed in this JVM (" + PROPERTY + "=" + first + "): this second"
                + " installation does nothing and its arguments are ignored. Give -javaagent once (look for a second"
                + " one on the command line and in JAVA_TOOL_OPTIONS)");
        return false;
    }
}
