package io.idempotent.examples.boot;

import io.idempotent.runtime.Step;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.stereotype.Component;

/**
 * The deterministic workflow layer: it decided to refund this invoice under this approval, so
 * the decision's identity (the step) is {@code <invoice>:<approval>}, and it hands it to
 * the tools through Spring AI's ToolContext. The model never sees or supplies it.
 */
@Component
public class RefundWorkflow {

    private final ChatClient chat;
    private final RefundTools tools;

    public RefundWorkflow(ChatClient.Builder chat, RefundTools tools) {
        this.chat = chat.build();
        this.tools = tools;
    }

    /** Asks the model to refund {@code amountCents} of the invoice, under this approval's step. */
    public String refund(String invoiceId, String approvalId, long amountCents) {
        return ask(invoiceId, approvalId, "refund " + invoiceId + " " + amountCents);
    }

    /** Sends {@code request} to the model under the step of this invoice and approval. */
    public String ask(String invoiceId, String approvalId, String request) {
        return chat.prompt(request).tools(tools)
                .toolContext(Step.asContext(invoiceId + ":" + approvalId))
                .call().content();
    }
}
