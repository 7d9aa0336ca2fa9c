package io.idempotent.examples.agent;

import io.idempotent.runtime.Step;

/**
 * The deterministic workflow layer: it decides what should happen (an approved refund, a signup,
 * a release) and gives each decision its step key. The model never supplies it, so every repeat,
 * retry and replay of a decision carries the same key.
 */
public final class Workflow {

    private final String session;

    /** A workflow run identified by {@code session}. */
    public Workflow(String session) {
        this.session = session;
    }

    /** Begins the step of {@code decision}: the tool calls made inside it share its identity. */
    public Step step(String decision) {
        return Step.begin(session + ":" + decision);
    }
}
