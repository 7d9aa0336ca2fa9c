package io.idempotent.agent;

import java.lang.instrument.Instrumentation;

/**
 * The javaagent's entry points: {@code -javaagent:idempotent-javaagent.jar[=key=value,...]} at
 * start-up ({@link #premain}) or attached to a running JVM ({@link #agentmain}). Both hand over to
 * {@link AgentInstaller}, which never lets a failure escape into the JVM's start-up.
 */
public final class IdempotentAgent {

    private IdempotentAgent() {
    }

    /** Called by the JVM before {@code main} for {@code -javaagent:}. */
    public static void premain(String arguments, Instrumentation instrumentation) {
        AgentInstaller.start(arguments, instrumentation, false);
    }

    /** Called by the JVM when the agent is attached to a running JVM. */
    public static void agentmain(String arguments, Instrumentation instrumentation) {
        AgentInstaller.start(arguments, instrumentation, true);
    }
}
