package io.idempotent.mcp;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.idempotent.runtime.CallAnswers;
import io.idempotent.runtime.CallOutcome;
import io.idempotent.runtime.MissingOperationKeyException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.ToolErrorReply;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The results a wrapped tool answers on MCP beyond its own: refusals as {@code isError} results
 * with a stable code in {@code structuredContent} (the MCP spec keeps JSON-RPC errors for the
 * protocol), and the {@code _meta} of a result the runtime answered (replay or not, and the
 * operation key). The codes and their form are in docs/frameworks.md; they never change meaning.
 */
final class McpAnswers {

    /** The code of a call whose key needs {@code {step}} and whose request carried none. */
    static final String MISSING_STEP = "missing_step";
    /** Result {@code _meta}: whether the runtime answered with a stored result (true) or ran the body (false). */
    static final String REPLAY = "io.idempotent/replay";
    /** Result {@code _meta}: the operation key the call was answered for. */
    static final String KEY = "io.idempotent/key";
    /** Refusal {@code _meta}: the refusal's code, for a client that reads only {@code _meta}. */
    static final String OUTCOME = "io.idempotent/outcome";

    private static final String MISSING_STEP_TEXT = "this tool needs the workflow's step: send the same call again"
            + " with _meta {\"" + Step.CONTEXT_KEY + "\": \"<the workflow step's id>\"}; nothing was done";

    private McpAnswers() {
    }

    /**
     * The refusal the client can act on for {@code thrown}, or empty when it is not one (a
     * configuration error or a foreign failure, which fails the call as before).
     */
    static Optional<CallToolResult> refusal(Throwable thrown, boolean requestHasStep) {
        Optional<ToolErrorReply> reply = ToolErrorReply.forModel(thrown);
        if (reply.isPresent()) {
            ToolErrorReply r = reply.get();
            return Optional.of(refusal(r.kind().code(), r.tool(), r.kind().text(), null, r.text()));
        }
        Optional<MissingOperationKeyException> missing = ToolErrorReply.idempotencyCause(thrown)
                .filter(MissingOperationKeyException.class::isInstance).map(MissingOperationKeyException.class::cast)
                .filter(MissingOperationKeyException::stepMissing);
        if (missing.isPresent() && !requestHasStep) {
            String tool = missing.get().tool();
            return Optional.of(refusal(MISSING_STEP, tool, MISSING_STEP_TEXT, Step.CONTEXT_KEY,
                    text(MISSING_STEP, tool, MISSING_STEP_TEXT, Step.CONTEXT_KEY)));
        }
        return Optional.empty();
    }

    private static CallToolResult refusal(String code, String tool, String message, String metaEntry, String text) {
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("code", code);
        if (tool != null) {
            structured.put("tool", tool);
        }
        structured.put("message", message);
        if (metaEntry != null) {
            structured.put("meta", metaEntry);
        }
        return CallToolResult.builder().addTextContent(text).isError(true)
                .structuredContent(structured).meta(Map.of(OUTCOME, code)).build();
    }

    /** The text the model reads: the same facts as one line of JSON, {@code error} holding the code as before. */
    private static String text(String code, String tool, String message, String metaEntry) {
        return "{\"error\":\"" + code + "\"," + (tool == null ? "" : "\"tool\":" + quote(tool) + ",")
                + "\"message\":" + quote(message) + (metaEntry == null ? "" : ",\"meta\":" + quote(metaEntry)) + "}";
    }

    /**
     * {@code result} with the answer's {@code _meta} (replay or not, the operation key) added to
     * the result's own; unchanged when the runtime answered no call for it, or answered it other
     * than by running the body or replaying.
     */
    static CallToolResult withAnswer(CallToolResult result, Optional<CallAnswers.Answer> answer) {
        if (result == null || answer.isEmpty() || Boolean.TRUE.equals(result.isError())) {
            return result;
        }
        CallOutcome outcome = answer.get().outcome();
        if (outcome != CallOutcome.EXECUTED && outcome != CallOutcome.REPLAYED) {
            return result;
        }
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put(REPLAY, outcome == CallOutcome.REPLAYED);
        meta.put(KEY, answer.get().key());
        if (result.meta() != null) {
            meta.putAll(result.meta()); // the tool's own entries win
        }
        return new CallToolResult(result.content(), result.isError(), result.structuredContent(), meta);
    }

    /** {@code s} as a JSON string, by Jackson's own escaping (the runtime's dependency). */
    private static String quote(String s) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
    }
}
