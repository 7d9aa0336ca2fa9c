package io.idempotent.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.AttemptRecord;
import io.idempotent.runtime.OperationRecord;
import java.io.PrintWriter;
import java.time.Instant;

/**
 * The {@code --json} output: one JSON document per command, stable field names, ISO-8601 times.
 * Every character the one rule for shown text hides ({@link TerminalText#isHidden}) is written as
 * a JSON {@code \}{@code uXXXX} escape (a pair of them beyond the Basic Multilingual Plane), as
 * Jackson already does below U+0020, so the output is safe to read in a terminal and the same
 * JSON to a parser.
 */
final class Json {

    static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private Json() {
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    static void print(PrintWriter out, JsonNode node) {
        out.println(write(node));
    }

    /** {@code node} as the {@code --json} text: indented, every hidden character escaped ({@link TerminalText#escapeJson}). */
    static String write(JsonNode node) {
        try {
            return TerminalText.escapeJson(MAPPER.writeValueAsString(node));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON output", e);
        }
    }

    /** The stored JSON as a tree when it parses, else as a string (it is shown, never trusted). */
    static JsonNode stored(String json) {
        if (json == null) {
            return MAPPER.nullNode();
        }
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            return MAPPER.getNodeFactory().textNode(json);
        }
    }

    static String time(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    /**
     * One operation with a page of its attempt log, its settlements and its approval's history
     * (the request, grants, denials and expiries, each with its detail: "granted by NAME: REASON"):
     * the incident review as data. {@code attemptCount} is the log's size; {@code nextAttemptsOffset} is where the next
     * page starts, or null after the last.
     */
    static ObjectNode operation(IncidentReview.Review review) {
        OperationRecord op = review.op();
        ObjectNode node = object();
        node.put("tool", op.tool());
        node.put("key", op.key());
        node.put("status", op.status().column());
        node.put("payloadHash", op.payloadHash());
        node.set("payload", op.payload());
        node.put("downstreamId", op.downstreamId());
        node.set("result", stored(op.resultJson()));
        node.set("lastError", stored(op.errorJson()));
        node.put("attempts", op.attempts());
        node.put("leaseToken", op.leaseToken());
        node.put("leaseUntil", time(op.leaseUntil()));
        node.put("effectStarted", op.effectStarted());
        node.put("createdAt", time(op.createdAt()));
        node.put("updatedAt", time(op.updatedAt()));
        node.put("expiresAt", time(op.expiresAt()));
        AttemptPage page = review.attempts();
        node.put("attemptCount", page.total());
        node.put("attemptsOffset", page.offset());
        if (page.hasMore()) {
            node.put("nextAttemptsOffset", page.nextOffset());
        } else {
            node.putNull("nextAttemptsOffset");
        }
        ArrayNode log = node.putArray("attemptLog");
        for (AttemptRecord a : page.attempts()) {
            ObjectNode row = log.addObject();
            row.put("attemptId", a.attemptId());
            row.put("outcome", a.outcome().name());
            row.put("leaseToken", a.leaseToken());
            row.put("downstreamId", a.downstreamId());
            row.put("detail", a.detail());
            row.put("startedAt", time(a.startedAt()));
            row.put("endedAt", time(a.endedAt()));
        }
        ArrayNode settlements = node.putArray("settlements");
        node.put("settlementCount", review.settlements().total());
        for (AttemptRecord a : review.settlements().attempts()) {
            ObjectNode row = settlements.addObject();
            row.put("outcome", a.outcome().name());
            row.put("detail", a.detail());
            row.put("at", time(a.startedAt()));
        }
        ArrayNode approvals = node.putArray("approvals");
        node.put("approvalCount", review.approvals().total());
        for (AttemptRecord a : review.approvals().attempts()) {
            ObjectNode row = approvals.addObject();
            row.put("outcome", a.outcome().name());
            row.put("detail", a.detail());
            row.put("at", time(a.startedAt()));
        }
        return node;
    }
}
