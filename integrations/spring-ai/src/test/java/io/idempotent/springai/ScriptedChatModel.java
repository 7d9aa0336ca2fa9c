package io.idempotent.springai;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A chat model that answers from a script, no network. It runs the tool calls it emits the way
 * Spring AI's provider models do: through the ToolCallingManager, in {@code call()} on the
 * caller's thread, in {@code stream()} on Reactor's {@code boundedElastic}. It records every tool
 * result it was sent, which is what the model saw.
 */
public final class ScriptedChatModel implements ChatModel {

    private final ToolCallingManager tools;
    private final Queue<AssistantMessage> script = new ConcurrentLinkedQueue<>();
    private final List<String> toolResults = Collections.synchronizedList(new ArrayList<>());

    public ScriptedChatModel(ToolCallingManager tools) {
        this.tools = tools;
    }

    /** Appends a reply that calls {@code tool} with {@code json} arguments under a new tool_call_id. */
    public ScriptedChatModel toolCall(String id, String tool, String json) {
        script.add(AssistantMessage.builder().content("")
                .toolCalls(List.of(new AssistantMessage.ToolCall(id, "function", tool, json))).build());
        return this;
    }

    /** Appends a plain text reply. */
    public ScriptedChatModel says(String text) {
        script.add(new AssistantMessage(text));
        return this;
    }

    /** Every tool result the model was sent, in order. */
    public List<String> toolResults() {
        return List.copyOf(toolResults);
    }

    // No @Override on these two: Spring AI 2.0 asks getOptions(), Spring AI 1.1 getDefaultOptions(),
    // and the same source is compiled against both (integrations/spring-ai-1.1-it).
    public ChatOptions getOptions() {
        // Not ToolCallingChatOptions: ChatClient would drop the tools.
        return ToolCallingChatOptions.builder().build();
    }

    public ChatOptions getDefaultOptions() {
        return getOptions();
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        ChatResponse response = next(prompt);
        if (!response.hasToolCalls()) {
            return response;
        }
        ToolExecutionResult result = tools.executeToolCalls(prompt, response);
        return call(new Prompt(result.conversationHistory(), prompt.getOptions()));
    }

    @Override
    public Flux<ChatResponse> stream(Prompt prompt) {
        return Flux.defer(() -> {
            ChatResponse response = next(prompt);
            if (!response.hasToolCalls()) {
                return Flux.just(response);
            }
            return Mono.fromCallable(() -> tools.executeToolCalls(prompt, response))
                    .subscribeOn(Schedulers.boundedElastic())
                    .flatMapMany(result -> stream(new Prompt(result.conversationHistory(), prompt.getOptions())));
        });
    }

    private ChatResponse next(Prompt prompt) {
        List<Message> messages = prompt.getInstructions();
        if (!messages.isEmpty() && messages.get(messages.size() - 1) instanceof ToolResponseMessage responses) {
            responses.getResponses().forEach(r -> toolResults.add(r.responseData()));
        }
        AssistantMessage reply = script.poll();
        if (reply == null) {
            throw new IllegalStateException("the script has no more replies");
        }
        return new ChatResponse(List.of(new Generation(reply)));
    }
}
