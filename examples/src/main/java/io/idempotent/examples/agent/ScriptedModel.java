package io.idempotent.examples.agent;

import java.util.List;
import java.util.Map;

/**
 * A stand-in for the model: for each decision of the workflow it emits the tool calls a model
 * might, including the bad habits that matter (repeating a call whose answer it missed, changing
 * an argument while it "retries" the same decision).
 */
public final class ScriptedModel {

    private final Map<String, List<ToolRequest>> script = Map.of(
            "approval_17", List.of(
                    ToolRequest.of("issue_refund", "invoice_842", 1250L),
                    // The model missed the answer and asks again.
                    ToolRequest.of("issue_refund", "invoice_842", 1250L)),
            "approval_18", List.of(
                    ToolRequest.of("issue_refund", "invoice_901", 500L),
                    // The model "fixes" the amount while retrying the same approval.
                    ToolRequest.of("issue_refund", "invoice_901", 5000L)),
            "ticket_1042", List.of(
                    ToolRequest.of("issue_refund", "invoice_977", 120_000L),
                    // No refund yet: the model asks again, with the same arguments.
                    ToolRequest.of("issue_refund", "invoice_977", 120_000L)),
            "signup_7", List.of(ToolRequest.of("send_welcome_email", "user_7", "ada@example.com")),
            "release_42", List.of(ToolRequest.of("set_target_version", "checkout", "v42")),
            "release_42_recheck", List.of(ToolRequest.of("set_target_version", "checkout", "v42")));

    /** The calls the model emits for {@code decision}. */
    public List<ToolRequest> respond(String decision) {
        List<ToolRequest> calls = script.get(decision);
        if (calls == null) {
            throw new IllegalArgumentException("the script has no answer for " + decision);
        }
        return calls;
    }
}
