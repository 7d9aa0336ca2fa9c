package io.idempotent.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** A chat model that answers from a script, no network, and records the tool results it was sent. */
public final class ScriptedChatModel implements ChatModel {

    private final Queue<AiMessage> script = new ConcurrentLinkedQueue<>();
    private final List<String> toolResults = Collections.synchronizedList(new ArrayList<>());

    /** Appends one reply with these tool calls (ids and arguments as given). */
    public ScriptedChatModel toolCalls(ToolExecutionRequest... requests) {
        script.add(AiMessage.from(List.of(requests)));
        return this;
    }

    public ScriptedChatModel says(String text) {
        script.add(AiMessage.from(text));
        return this;
    }

    static ToolExecutionRequest call(String id, String tool, String json) {
        return ToolExecutionRequest.builder().id(id).name(tool).arguments(json).build();
    }

    public List<String> toolResults() {
        return List.copyOf(toolResults);
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        List<String> latest = new ArrayList<>();
        for (int i = messages.size() - 1; i >= 0 && messages.get(i) instanceof ToolExecutionResultMessage r; i--) {
            latest.add(0, r.text());
        }
        toolResults.addAll(latest);
        AiMessage reply = script.poll();
        if (reply == null) {
            throw new IllegalStateException("the script has no more replies");
        }
        return ChatResponse.builder().aiMessage(reply).build();
    }
}
