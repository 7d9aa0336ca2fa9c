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

    /**
     * The tool that carries out {@code request}: a refund above the desk's limit goes to the tool
     * that needs a person's approval. The rule is the workflow's, never the model's (see
     * {@link RefundDesk}): the model asks for a refund, and cannot skip the approval.
     */
    public ToolRequest route(ToolRequest request) {
        if (request.tool().equals("issue_refund") && (Long) request.arguments().get(1) > RefundDesk.APPROVAL_LIMIT_CENTS) {
            return new ToolRequest("issue_large_refund", request.arguments());
        }
        return request;
    }
}
