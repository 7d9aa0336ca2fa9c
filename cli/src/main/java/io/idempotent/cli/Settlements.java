package io.idempotent.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.Operations;
import java.io.IOException;
import java.lang.reflect.Type;

/**
 * Settling an uncertain operation by hand, for the command line and the console alike: the
 * operation must await reconciliation, the operator must be named, and an applied result must fit
 * the tool's return type before anything is written (a result that does not fit would complete
 * the record and then fail every replay).
 */
final class Settlements {

    /** Reads results as strictly as an operator's file deserves: unknown or missing fields are errors. */
    private static final ObjectMapper STRICT = JsonMapper.builder().findAndAddModules()
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final Operations operations;
    private final String store;

    Settlements(Operations operations, String store) {
        this.operations = operations;
        this.store = store;
    }

    /** The operation, if it awaits reconciliation; else refused. */
    OperationRecord awaiting(String tool, String key) {
        OperationRecord op = operations.find(store, tool, key).orElseThrow(() -> new RefusedException(
                "no operation " + key + " of tool " + tool + " in store " + store));
        if (op.status() != OperationStatus.NEEDS_RECONCILIATION) {
            throw new RefusedException("operation " + key + " of tool " + tool + " is " + op.status().column()
                    + ", not needs_reconciliation: only an uncertain operation can be settled; nothing was changed");
        }
        return op;
    }

    /** Settles as applied with {@code resultJson}, read into {@code resultType} first. */
    void applied(String tool, String key, Type resultType, String resultJson, String operator) {
        requireOperator(operator);
        awaiting(tool, key);
        Object result = fit(tool, resultType, resultJson);
        operations.settleApplied(store, tool, key, result, resultType, operator);
    }

    /** Settles as not applied: the next call with the key runs the body again. */
    void notApplied(String tool, String key, String reason, String operator) {
        requireOperator(operator);
        if (reason == null || reason.isBlank()) {
            throw new RefusedException("a settlement as not applied needs a reason (what the downstream showed)");
        }
        awaiting(tool, key);
        operations.settleNotApplied(store, tool, key, reason, operator);
    }

    static Object fit(String tool, Type resultType, String resultJson) {
        boolean isVoid = resultType == void.class || resultType == Void.class;
        String json = resultJson == null ? "" : resultJson.strip();
        if (isVoid) {
            if (!json.isEmpty() && !json.equals("null")) {
                throw new RefusedException("tool " + tool + " returns nothing, so its settled result must be empty"
                        + " or null; nothing was changed");
            }
            return null;
        }
        if (json.isEmpty() || json.equals("null")) {
            throw new RefusedException("tool " + tool + " returns " + resultType.getTypeName() + ": a settlement as"
                    + " applied needs the result the tool would have returned, not null; nothing was changed");
        }
        try {
            return STRICT.readValue(json, STRICT.getTypeFactory().constructType(resultType));
        } catch (IOException e) {
            throw new RefusedException("the result does not fit tool " + tool + "'s return type "
                    + resultType.getTypeName() + " (" + firstLine(e.getMessage()) + "); nothing was changed", e);
        }
    }

    private static void requireOperator(String operator) {
        if (operator == null || operator.isBlank()) {
            throw new RefusedException("a settlement needs the operator's name (--operator)");
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int end = message.indexOf('\n');
        String line = end < 0 ? message : message.substring(0, end);
        // Jackson quotes the offending input; keep the message short.
        return line.length() > 160 ? line.substring(0, 160) + "..." : line;
    }
}
