package io.idempotent.runtime.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import io.idempotent.runtime.PayloadNotSerializableException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Turns the payload arguments into canonical JSON and its SHA-256. Canonical means: object keys
 * sorted, no insignificant whitespace, and one form per number (numerically equal numbers are
 * written the same way, {@code 1}, {@code 1.0} and {@code 1.00} alike), so that field order and
 * number formatting never change the hash and any changed value does. Jackson (the application's
 * {@link ObjectMapper}, with its modules and annotations) turns the arguments into a tree first.
 */
public final class PayloadCodec {

    private final ObjectMapper mapper;

    /** Uses {@code mapper} to turn arguments into JSON trees. */
    public PayloadCodec(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** The canonical payload and its hash. */
    public record CanonicalPayload(String json, String sha256) {
    }

    /** Serialises the payload arguments of {@code tool}. */
    public CanonicalPayload encode(String tool, String key, Map<String, ?> payload) {
        StringBuilder out = new StringBuilder();
        out.append('{');
        List<String> names = new ArrayList<>(payload.keySet());
        Collections.sort(names);
        boolean first = true;
        for (String name : names) {
            JsonNode tree;
            try {
                tree = mapper.valueToTree(payload.get(name));
            } catch (IllegalArgumentException e) {
                throw new PayloadNotSerializableException(tool, key, "payload argument " + name
                        + " cannot be serialised as JSON (" + rootMessage(e) + "); nothing was claimed. Make it"
                        + " serialisable or mark the parameter @NotPayload", e);
            }
            if (!first) {
                out.append(',');
            }
            first = false;
            writeString(out, name);
            out.append(':');
            write(out, tree);
        }
        out.append('}');
        String json = out.toString();
        return new CanonicalPayload(json, sha256(json));
    }

    private void write(StringBuilder out, JsonNode node) {
        JsonNodeType type = node == null ? JsonNodeType.NULL : node.getNodeType();
        switch (type) {
            case OBJECT -> {
                List<String> fields = new ArrayList<>();
                for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                    fields.add(it.next());
                }
                Collections.sort(fields);
                out.append('{');
                for (int i = 0; i < fields.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    writeString(out, fields.get(i));
                    out.append(':');
                    write(out, node.get(fields.get(i)));
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(out, node.get(i));
                }
                out.append(']');
            }
            case NUMBER -> out.append(canonicalNumber(node));
            case STRING -> writeString(out, node.textValue());
            case BOOLEAN -> out.append(node.booleanValue());
            case NULL, MISSING -> out.append("null");
            case BINARY, POJO -> writeString(out, node.asText());
        }
    }

    private static String canonicalNumber(JsonNode node) {
        if (node.isIntegralNumber()) {
            return node.bigIntegerValue().toString();
        }
        double d = node.doubleValue();
        if (node.isDouble() || node.isFloat()) {
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return "\"" + d + "\"";
            }
            // Via the shortest decimal text of the double, so 0.1 stays 0.1.
            return plain(new BigDecimal(node.isFloat() ? Float.toString(node.floatValue()) : Double.toString(d)));
        }
        return plain(node.decimalValue());
    }

    private static String plain(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        if (stripped.signum() == 0) {
            return "0";
        }
        return stripped.scale() <= 0 ? stripped.toBigIntegerExact().toString() : stripped.toPlainString();
    }

    private void writeString(StringBuilder out, String s) {
        try {
            out.append(mapper.writeValueAsString(s));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("writing a JSON string cannot fail", e);
        }
    }

    static String sha256(String json) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(json.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getName() : root.getMessage();
    }
}
