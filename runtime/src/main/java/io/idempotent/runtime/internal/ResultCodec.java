package io.idempotent.runtime.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idempotent.runtime.ResultNotReplayableException;
import java.lang.reflect.Type;

/** Stores results as JSON and reads them back into the method's generic return type. */
public final class ResultCodec {

    private final ObjectMapper mapper;

    /** Uses the application's {@code mapper}, so its modules and annotations apply. */
    public ResultCodec(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** The mapper in use. */
    public ObjectMapper mapper() {
        return mapper;
    }

    /** The JSON of {@code result} ({@code null} for void tools is stored as JSON null). */
    public String write(Object result) throws JsonProcessingException {
        return mapper.writeValueAsString(result);
    }

    /**
     * Reads a stored result into {@code type}.
     *
     * @throws ResultNotReplayableException if the JSON no longer fits the type
     */
    public Object read(String tool, String key, String json, Type type) {
        if (type == void.class || type == Void.class) {
            return null;
        }
        JavaType javaType = mapper.getTypeFactory().constructType(type);
        try {
            Object value = mapper.readValue(json, javaType);
            if (value == null && javaType.isPrimitive()) {
                throw new ResultNotReplayableException(tool, key, "tool " + tool + ": the stored result of " + key
                        + " is null, which cannot be returned as " + type.getTypeName());
            }
            return value;
        } catch (JsonProcessingException e) {
            throw new ResultNotReplayableException(tool, key, "tool " + tool + ": the stored result of " + key
                    + " can no longer be read as " + type.getTypeName() + " (" + e.getOriginalMessage() + ")."
                    + " The operation did happen, so the body is not run again; make the type read the stored JSON"
                    + " again, or settle the record by hand. Stored JSON: " + abbreviate(json), e);
        }
    }

    /** A small JSON document describing a failure, for {@code error_json}. */
    public String error(Throwable t) {
        ObjectNode node = mapper.createObjectNode();
        node.put("type", t.getClass().getName());
        node.put("message", t.getMessage());
        return node.toString();
    }

    /** A small JSON document with a reason, for {@code error_json}. */
    public String reason(String reason) {
        ObjectNode node = mapper.createObjectNode();
        node.put("reason", reason);
        return node.toString();
    }

    private static String abbreviate(String json) {
        return json.length() <= 300 ? json : json.substring(0, 300) + "...";
    }
}
