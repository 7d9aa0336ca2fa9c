package io.idempotent.runtime.internal.readiness;

/**
 * What the runtime says wherever it can tell that a tool body runs without the protocol: the two
 * ways a tool gets wrapped. One text, so that every message gives the same advice.
 */
public final class Unwrapped {

    /** The advice: the javaagent at run time, or the build plugin at build time. */
    public static final String ADVICE = "start the JVM with -javaagent:idempotent-javaagent.jar (and look for its"
            + " [idempotent-agent] started: line), or weave the class at build time with the build plugin"
            + " io.idempotent.build.IdempotentPlugin (docs/troubleshooting.md, \"runs without the agent\")";

    private Unwrapped() {
    }
}
