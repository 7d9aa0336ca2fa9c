package io.idempotent.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DatabindException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.Operations;
import java.io.IOException;
import java.lang.reflect.Type;

/**
 * Settling an uncertain operation by hand, for the command line and the console alike: the
 * operation must await reconciliation, the operator must be named, and an applied result must fit
 * the tool's return type before anything is written (a result that does not fit would complete
 * the record and then fail every replay). Every settlement leaves one INFO line in {@link #LOG_NAME}
 * (tool, key, outcome, operator and where it was made), at whatever level the rest is logged.
 */
final class Settlements {

    /** The logger of settlements; the command line keeps it at INFO while it quiets the rest. */
    static final String LOG_NAME = "io.idempotent.cli.settlements";
    private static final System.Logger LOG = System.getLogger(LOG_NAME);

    /**
     * Reads results as strictly as an operator's file deserves: unknown or missing fields are
     * errors, and no value changes its JSON type on the way in ({@code 12345} is not the string
     * {@code "12345"}, {@code "12"} not the number 12, {@code 1} not {@code true}): a settlement
     * that only fits by coercion is most likely the wrong value.
     */
    private static final ObjectMapper STRICT = JsonMapper.builder().findAndAddModules()
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .withCoercionConfig(LogicalType.Textual, config -> config
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .build();

    private final Operations operations;
    private final String store;
    private final String channel;

    /** @param channel where the settlement is made, for the log line ("console", "command line") */
    Settlements(Operations operations, String store, String channel) {
        this.operations = operations;
        this.store = store;
        this.channel = channel;
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
        String name = OperatorName.require(operator);
        awaiting(tool, key);
        Object result = fit(tool, resultType, resultJson);
        operations.settleApplied(store, tool, key, result, resultType, name);
        logged(tool, key, "applied", name);
    }

    /** Settles as not applied: the next call with the key runs the body again. */
    void notApplied(String tool, String key, String reason, String operator) {
        String name = OperatorName.require(operator);
        if (reason == null || reason.isBlank()) {
            throw new RefusedException("a settlement as not applied needs a reason (what the downstream showed)");
        }
        awaiting(tool, key);
        operations.settleNotApplied(store, tool, key, reason, name);
        logged(tool, key, "not applied", name);
    }

    private void logged(String tool, String key, String outcome, String operator) {
        // The runtime refuses control characters in a key, not format ones (a tag, an override): escaped.
        LOG.log(System.Logger.Level.INFO, TerminalText.escape("settled " + tool + " " + key + " as " + outcome + " by "
                + operator + " (" + channel + ")"));
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
        } catch (StreamReadException e) {
            // Where, never what: the parser's own message quotes the text around the mistake.
            JsonLocation at = e.getLocation();
            throw new RefusedException("the settled result is not well-formed JSON (line " + at.getLineNr()
                    + ", column " + at.getColumnNr() + "); nothing was changed");
        } catch (DatabindException e) {
            throw new RefusedException("the result does not fit tool " + tool + "'s return type "
                    + resultType.getTypeName() + " (" + mismatch(e) + "); nothing was changed");
        } catch (IOException e) {
            throw new RefusedException("the settled result cannot be read (" + e.getClass().getSimpleName()
                    + "); nothing was changed");
        }
    }

    /** What does not fit and where (field path, line and column), without the value itself. */
    private static String mismatch(DatabindException e) {
        StringBuilder path = new StringBuilder();
        if (e instanceof JsonMappingException mapping) {
            for (JsonMappingException.Reference ref : mapping.getPath()) {
                if (ref.getFieldName() != null) {
                    path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
                } else if (ref.getIndex() >= 0) {
                    path.append('[').append(ref.getIndex()).append(']');
                }
            }
        }
        String what = e instanceof UnrecognizedPropertyException unknown
                ? "unknown field \"" + unknown.getPropertyName() + "\""
                : withoutValues(firstLine(e.getOriginalMessage()));
        JsonLocation at = e.getLocation();
        String where = (path.length() == 0 ? "" : "at " + path + ", ")
                + (at == null ? "" : "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": ");
        return where + what;
    }

    /** Jackson's message without the values it quotes ({@code Integer value (12345)}, {@code String "abc"}). */
    private static String withoutValues(String message) {
        return message.replaceAll("value \\([^)]*\\)", "value").replaceAll("String \"[^\"]*\"", "String")
                .replaceAll(" \\(but could if coercion was enabled[^)]*\\)", "");
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
