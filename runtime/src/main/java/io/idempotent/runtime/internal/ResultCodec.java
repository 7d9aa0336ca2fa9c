package io.idempotent.runtime.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idempotent.runtime.ResultNotReplayableException;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stores results as JSON and reads them back into the method's generic return type, so that a
 * replay returns what the first call returned: a date-time keeps its offset (and a zoned one its
 * zone id), and a decimal number in an untyped position ({@code Object}, {@code Map<String,
 * Object>}) comes back as a {@link java.math.BigDecimal} with its scale, never as a rounded
 * {@code double}. Whole numbers in untyped positions come back as {@code Integer}, {@code Long} or
 * {@code BigInteger}, whatever Java type they had: JSON keeps no more.
 */
public final class ResultCodec {

    private static final int MAX_CACHED_READERS = 1024;

    private final ObjectMapper mapper;
    private final ObjectWriter writer;
    private final ObjectReader reader;
    /** Readers by return type; see {@link #readerFor}. */
    private final Map<Type, ObjectReader> readers = new ConcurrentHashMap<>();
    /** What {@link #readProblem} found for each return type ({@link #READABLE} for none). */
    private final Map<Type, String> readProblems = new ConcurrentHashMap<>();
    private static final String READABLE = "";

    /** Uses the application's {@code mapper}, so its modules and annotations apply. */
    public ResultCodec(ObjectMapper mapper) {
        this.mapper = mapper;
        // Whatever the application's mapper does for its own JSON, a stored result must read back
        // as it was written: these settings only add fidelity and never change a typed field.
        this.writer = mapper.writer()
                .without(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .without(SerializationFeature.WRITE_DATES_WITH_CONTEXT_TIME_ZONE)
                .with(SerializationFeature.WRITE_DATES_WITH_ZONE_ID);
        this.reader = mapper.reader()
                .without(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    }

    /** The mapper in use. */
    public ObjectMapper mapper() {
        return mapper;
    }

    /** The JSON of {@code result} ({@code null} for void tools is stored as JSON null). */
    public String write(Object result) throws JsonProcessingException {
        return writer.writeValueAsString(result);
    }

    /**
     * The JSON of a result that is about to settle an operation (a reconciler's or an operator's
     * answer), after checking that it fits {@code type} exactly: it reads back into the type and
     * writes out again as the same JSON, and it is not null unless the tool is void. A result
     * that would replay as something else (a {@code Map} for a record, an empty map as a record of
     * nulls) is refused, because once settled every duplicate would get it.
     *
     * @throws ResultNotReplayableException if the result does not fit; its message holds no part
     *     of the result
     */
    public String writeReplayable(String tool, String key, Object result, Type type) {
        if (isVoid(type)) {
            return "null";
        }
        if (result == null) {
            throw new ResultNotReplayableException(tool, key, "the settled result is null, but the tool returns "
                    + type.getTypeName());
        }
        Checked checked = check(result, type);
        if (checked.problem() != null) {
            throw new ResultNotReplayableException(tool, key, "the settled result " + checked.problem());
        }
        return checked.json();
    }

    /**
     * The JSON of the result a body returned, checked as a settlement is ({@link
     * #writeReplayable}), so that a replay answers with what the first call got; null is stored
     * as JSON null, as the body may return it.
     *
     * @return the JSON, or null with {@code problem} set when the result cannot be stored and read back
     */
    public Checked writeChecked(Object result, Type type) {
        if (isVoid(type) || result == null) {
            return new Checked("null", null);
        }
        // Without a return type (a caller of the engine's own) there is nothing to read it back
        // into; a scalar of a plain class type reads back as written.
        if (type == null || TRIVIAL.contains(result.getClass()) && type instanceof Class<?>) {
            try {
                return new Checked(write(result), null);
            } catch (JsonProcessingException e) {
                return new Checked(null, "(a " + result.getClass().getName() + ") cannot be stored (" + describe(e)
                        + ")");
            }
        }
        return check(result, type);
    }

    /** A body's result as JSON, or why it cannot be stored and read back (naming types, never values). */
    public record Checked(String json, String problem) {

        /** The problem (which names types, never values) and the result's size. */
        @Override
        public String toString() {
            return "Checked[json=" + Redacted.size(json) + ", problem=" + problem + "]";
        }
    }

    /**
     * Results that always read back as they were written into their own class or a supertype
     * of it, when the return type is a plain class: what a check would only repeat.
     */
    private static final java.util.Set<Class<?>> TRIVIAL = java.util.Set.of(String.class, Boolean.class,
            Integer.class, Long.class, Short.class, Byte.class, Character.class);

    /** The JSON of {@code result} if it stores and reads back unchanged as {@code type}, else why not. */
    private Checked check(Object result, Type type) {
        try {
            String json = write(result);
            Object read = readerFor(type).readValue(json);
            String again = read == null ? null : write(read);
            // The same text is the common case and needs no trees; otherwise the trees decide
            // (an object's fields may come back in another order).
            if (read == null || !json.equals(again) && !reader.readTree(again).equals(reader.readTree(json))) {
                return new Checked(null, "(a " + result.getClass().getName() + ") does not read back unchanged as "
                        + type.getTypeName());
            }
            return new Checked(json, null);
        } catch (JsonProcessingException e) {
            // Jackson's exception quotes the values it met, so it is described, not attached.
            return new Checked(null, "(a " + result.getClass().getName() + ") cannot be stored and read back as "
                    + type.getTypeName() + " (" + describe(e) + ")");
        }
    }

    /**
     * Why this codec's mapper could never read a stored result back into {@code type}, whatever the
     * value, or null when it can: the same question the release gate asks at build time
     * ({@code [IdemResultReadBack]}), answered here by the mapper the runtime really uses (its
     * modules, a Kotlin module or none, a parameter-names module or none). Asked before a call
     * claims its key, so that a type the build could not fully see (a mapper without the module
     * the build found, a policy written by hand) stops the call before its body makes an effect,
     * instead of leaving a completed effect whose result can never be replayed. What depends on the
     * value (a cycle, a getter that throws) is still found when the result is stored.
     */
    public String readProblem(Type type) {
        if (type == null || isVoid(type)) {
            return null;
        }
        String known = readProblems.get(type);
        if (known == null) {
            known = ReadableTypes.problem(mapper, javaType(type));
            known = known == null ? READABLE : known;
            if (readProblems.size() < MAX_CACHED_READERS) {
                readProblems.putIfAbsent(type, known);
            }
        }
        return known.equals(READABLE) ? null : known;
    }

    /**
     * Reads a stored result into {@code type}.
     *
     * @throws ResultNotReplayableException if the JSON no longer fits the type; its message names
     *     the type and the failing field, never the stored JSON
     */
    public Object read(String tool, String key, String json, Type type) {
        if (isVoid(type)) {
            return null;
        }
        ObjectReader typed = readerFor(type);
        try {
            Object value = typed.readValue(json);
            if (value == null && typed.getValueType().isPrimitive()) {
                throw new ResultNotReplayableException(tool, key, "the stored result is null, which cannot be"
                        + " returned as " + type.getTypeName());
            }
            return value;
        } catch (JsonProcessingException e) {
            // Jackson's exception quotes the stored values, so it is described, not attached.
            throw new ResultNotReplayableException(tool, key, "the stored result can no longer be read as "
                    + type.getTypeName() + " (" + describe(e) + ")");
        }
    }

    /** The exception type named by a stored {@code error_json} ({@link #error}), or null. */
    public String errorType(String errorJson) {
        if (errorJson == null) {
            return null;
        }
        try {
            JsonNode type = mapper.readTree(errorJson).get("type");
            return type != null && type.isTextual() ? type.textValue() : null;
        } catch (JsonProcessingException e) {
            return null;
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

    /**
     * The reader of {@code type}, made once per type: a replay would otherwise resolve the type
     * and look up its deserializer in Jackson's shared caches on every call. The types are the
     * tools' return types, a handful per application; past {@link #MAX_CACHED_READERS} a reader
     * is made per call, as before.
     */
    private ObjectReader readerFor(Type type) {
        ObjectReader cached = readers.get(type);
        if (cached != null) {
            return cached;
        }
        ObjectReader made = reader.forType(javaType(type));
        if (readers.size() < MAX_CACHED_READERS) {
            readers.putIfAbsent(type, made);
        }
        return made;
    }

    private JavaType javaType(Type type) {
        return mapper.getTypeFactory().constructType(type);
    }

    private static boolean isVoid(Type type) {
        return type == void.class || type == Void.class;
    }

    /**
     * What went wrong in reading JSON, in words that hold no value from it: Jackson's own
     * messages quote the offending values, so only the kind of problem and the path of field
     * names are told (a map's keys are data, so they are not).
     */
    private static String describe(JsonProcessingException e) {
        StringBuilder out = new StringBuilder();
        if (e instanceof UnrecognizedPropertyException unknown) {
            out.append("unknown property \"").append(unknown.getPropertyName()).append('"');
        } else {
            out.append(e.getClass().getSimpleName());
        }
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            out.append(" at ").append(JsonPaths.render("$", mapping.getPath()));
        }
        return out.toString();
    }
}
