package io.idempotent.agent;

import java.lang.instrument.Instrumentation;
import java.util.HashSet;
import java.util.Set;

/**
 * The fail-closed check at the end of the agent's start: every listed class already loaded must
 * have gone through one of the agent's transformations. A class loaded inside another class's
 * transformation (Byte Buddy then leaves the nested class unchanged, silently), or loaded before
 * the transformation was installed and missed by its retransformation, is retransformed now, where
 * no transformation is under way; one that still is not transformed is an ERROR naming it.
 */
final class LoadedListedClasses {

    private LoadedListedClasses() {
    }

    /** Retransforms each loaded class of {@code listed} that no transformation reached; returns how many. */
    static int retransformMissed(Instrumentation instrumentation, ListedTools listed) {
        Set<String> names = new HashSet<>(listed.classNames());
        int missed = 0;
        for (Class<?> type : instrumentation.getAllLoadedClasses()) {
            // Canonical names as the tables write them; comparing on getName() loads no enclosing class.
            if (!names.contains(type.getName().replace('$', '.'))
                    || AgentStatus.transformed(type.getName(), type.getClassLoader())) {
                continue;
            }
            missed++;
            try {
                instrumentation.retransformClasses(type);
            } catch (Exception | LinkageError e) {
                AgentLog.error("cannot retransform " + type.getName() + ": " + e);
            }
            if (!AgentStatus.transformed(type.getName(), type.getClassLoader())) {
                AgentLog.error(type.getName() + " was loaded without the agent's transformation, and retransforming it"
                        + " failed: its listed tools run without the protocol (no claim, no replay). Restart the JVM"
                        + " with -javaagent:idempotent-javaagent.jar instead of attaching the agent");
            }
        }
        return missed;
    }
}
