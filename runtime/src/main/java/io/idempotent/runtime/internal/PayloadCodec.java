package io.idempotent.runtime.internal;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.idempotent.runtime.PayloadNotSerializableException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Turns the payload arguments into canonical JSON and its SHA-256, so that two calls carry the
 * same hash exactly when their arguments have the same value, on every JVM and JDK version (the
 * rules are in {@link CanonicalJson}: sorted keys, sets in a fixed order, one form per number,
 * strict strings). Jackson (a copy of the application's {@link ObjectMapper}, with its modules and
 * annotations) turns the arguments into a tree first. Values that this would use up or cannot see
 * (iterators, streams, readers, functions: {@link UnhashableValues}) are refused, wherever they sit
 * in an argument, before anything reads them and before the claim.
 */
public final class PayloadCodec {

    /** A digest per thread: looking one up costs more than hashing a small payload. */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(PayloadCodec::newDigest);
    private static final HexFormat HEX = HexFormat.of();

    private final ObjectMapper mapper;
    private final ScalarArguments scalars;

    /** Uses a copy of {@code mapper} (which stays unchanged) to turn arguments into JSON trees. */
    public PayloadCodec(ObjectMapper mapper) {
        // Floats as BigDecimal would go through JDK 17's Double.toString; the canonical writer
        // formats the double itself.
        // The refusal of unhashable values comes last, so that it wins over every other module.
        this.mapper = mapper.copy().registerModule(SetOrderMarker.module())
                .registerModule(UnhashableValues.module())
                .disable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        this.scalars = new ScalarArguments(this.mapper);
    }

    /** The canonical payload and its hash. */
    public record CanonicalPayload(String json, String sha256) {

        /** Its size only: neither the payload nor its hash reaches a log line. */
        @Override
        public String toString() {
            return "CanonicalPayload[json=" + Redacted.size(json) + "]";
        }
    }

    /** Serialises the payload arguments of {@code tool}. */
    public CanonicalPayload encode(String tool, String key, Map<String, ?> payload) {
        // Room for a small payload from the start: growing the builder copies it each time.
        StringBuilder out = new StringBuilder(256);
        out.append('{');
        List<String> names = new ArrayList<>(payload.keySet());
        Collections.sort(names);
        boolean first = true;
        for (String name : names) {
            Object value = payload.get(name);
            // Plain scalars go straight to text; anything else through the mapper's JSON tree.
            boolean direct = scalars.writesDirectly(value);
            JsonNode tree = direct ? null : tree(tool, key, name, value);
            if (!first) {
                out.append(',');
            }
            first = false;
            try {
                CanonicalJson.string(out, name);
                out.append(':');
                if (direct) {
                    scalars.write(out, value);
                } else {
                    CanonicalJson.write(out, tree);
                }
            } catch (CanonicalJson.NotCanonical e) {
                throw notCanonical(tool, key, name, e);
            }
        }
        out.append('}');
        String json = out.toString();
        return new CanonicalPayload(json, sha256(json));
    }

    private JsonNode tree(String tool, String key, String name, Object value) {
        try {
            return mapper.valueToTree(value);
        } catch (IllegalArgumentException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof UnhashableValues.Refused refused) {
                    // Said before the claim and before anything read the value: the body gets it whole.
                    String where = UnhashableValues.path(name, refused);
                    throw new PayloadNotSerializableException(tool, key, "payload argument " + name
                            + (where.equals(name) ? " is " : " holds at " + where + " ") + refused.getOriginalMessage()
                            + "; nothing was claimed and the body did not run", "Pass the values themselves (a List,"
                            + " a record of values), or mark the parameter @NotPayload if it does not describe the"
                            + " operation", null);
                }
            }
            // Only the root cause's class, and no cause attached: Jackson's messages (and a
            // getter's exception) may quote the value, and a cause's message reaches every log.
            throw new PayloadNotSerializableException(tool, key, "payload argument " + name
                    + " cannot be serialised as JSON (" + rootClass(e) + "; its message is not shown, as it may"
                    + " quote the value: serialise the argument with your ObjectMapper to see it); nothing was"
                    + " claimed. Make it serialisable or mark the parameter @NotPayload", null);
        }
    }

    private static PayloadNotSerializableException notCanonical(String tool, String key, String name,
            CanonicalJson.NotCanonical e) {
        return new PayloadNotSerializableException(tool, key, "tool " + tool + ": payload argument " + name
                + " " + e.getMessage() + "; nothing was claimed. Pass a value that has one (or mark the"
                + " parameter @NotPayload if it does not describe the operation)");
    }

    static String sha256(String json) {
        // digest() resets the digest, so the thread's next call starts afresh.
        return HEX.formatHex(SHA_256.get().digest(json.getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    static String rootClass(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getName();
    }
}
