package io.idempotent.examples.boot;

import java.util.List;
import java.util.UUID;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.stereotype.Component;

/**
 * A chat model without a network: for "refund INVOICE CENTS [CENTS2]" it calls issueRefund, then
 * calls it again under a new tool_call_id (as real models do after a timeout, or when unsure),
 * with CENTS2 if given, and then answers with the last tool result it read. It runs tools the way
 * Spring AI's provider models do, through the ToolCallingManager (which uses the idempotent
 * exception processor that the auto-configuration registers).
 */
@Component
public class ScriptedChatModel implements ChatModel {

    private final ToolCallingManager tools;

    public ScriptedChatModel(ToolCallingManager tools) {
        this.tools = tools;
    }

    @Override
    public ChatOptions getOptions() {
        // Not plain ChatOptions: ChatClient would drop the tools.
        return ToolCallingChatOptions.builder().build();
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        ChatResponse response = reply(prompt.getInstructions());
        if (!response.hasToolCalls()) {
            return response;
        }
        ToolExecutionResult result = tools.executeToolCalls(prompt, response);
        return call(new Prompt(result.conversationHistory(), prompt.getOptions()));
    }

    private static ChatResponse reply(List<Message> messages) {
        String[] words = messages.stream().filter(m -> m instanceof UserMessage).reduce((a, b) -> b)
                .map(Message::getText).orElse("").split(" ");
        List<String> results = messages.stream().filter(m -> m instanceof ToolResponseMessage)
                .flatMap(m -> ((ToolResponseMessage) m).getResponses().stream())
                .map(ToolResponseMessage.ToolResponse::responseData).toList();
        if (words.length < 3 || !words[0].equals("refund") || results.size() >= 2) {
            return text(results.isEmpty() ? "nothing to do" : results.get(results.size() - 1));
        }
        String cents = results.isEmpty() || words.length < 4 ? words[2] : words[3];
        String arguments = "{\"invoiceId\":\"" + words[1] + "\",\"amountCents\":" + cents + "}";
        return new ChatResponse(List.of(new Generation(AssistantMessage.builder().content("")
                .toolCalls(List.of(new AssistantMessage.ToolCall("call_" + UUID.randomUUID(), "function",
                        "issueRefund", arguments))).build())));
    }

    private static ChatResponse text(String text) {
        return new ChatResponse(List.of(new Generation(new AssistantMessage(text))));
    }
}
