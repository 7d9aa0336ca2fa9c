package io.idempotent.agent;

/** The agent's few log lines, on standard error (the agent has no logging library of its own). */
final class AgentLog {

    private AgentLog() {
    }

    static void info(String message) {
        System.err.println("[idempotent-agent] " + message);
    }

    static void warning(String message) {
        System.err.println("[idempotent-agent] WARNING " + message);
    }

    static void error(String message) {
        System.err.println("[idempotent-agent] ERROR " + message);
    }
}
