package io.idempotent.runtime.internal;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ser.std.BooleanSerializer;
import com.fasterxml.jackson.databind.ser.std.NumberSerializers;
import com.fasterxml.jackson.databind.ser.std.StringSerializer;
import java.util.Map;

/**
 * Writes the canonical form of the plainest payload arguments ({@code String}, {@code Long},
 * {@code Integer}, {@code Short}, {@code Boolean}) without building a JSON tree first, which is
 * most of a small payload's cost. Only where the mapper would write the type with Jackson's own
 * serializer, decided once per type from the serializer the mapper picks for a root value (so a
 * module, mix-in or format override of the application changes nothing: such a type keeps going
 * through the tree). The text is the one {@link CanonicalJson} writes for the tree.
 */
final class ScalarArguments {

    /** The serializer Jackson uses for each type when nothing of the application's replaces it. */
    private static final Map<Class<?>, Class<?>> STANDARD = Map.of(
            String.class, StringSerializer.class,
            Long.class, NumberSerializers.LongSerializer.class,
            Integer.class, NumberSerializers.IntegerSerializer.class,
            Short.class, NumberSerializers.ShortSerializer.class,
            Boolean.class, BooleanSerializer.class);

    private final boolean string;
    private final boolean longs;
    private final boolean ints;
    private final boolean shorts;
    private final boolean booleans;

    ScalarArguments(ObjectMapper mapper) {
        this.string = standard(mapper, String.class);
        this.longs = standard(mapper, Long.class);
        this.ints = standard(mapper, Integer.class);
        this.shorts = standard(mapper, Short.class);
        this.booleans = standard(mapper, Boolean.class);
    }

    private static boolean standard(ObjectMapper mapper, Class<?> type) {
        try {
            // The contextual serializer of a root value, wrapped if default typing applies to the type.
            JsonSerializer<Object> serializer = mapper.getSerializerProviderInstance()
                    .findTypedValueSerializer(type, false, null);
            return serializer.getClass() == STANDARD.get(type);
        } catch (JsonMappingException e) {
            return false;
        }
    }

    /** Whether {@link #write} writes {@code value} (null is left to the tree, as is every other type). */
    boolean writesDirectly(Object value) {
        if (value == null) {
            return false;
        }
        Class<?> type = value.getClass();
        return type == String.class ? string
                : type == Long.class ? longs
                : type == Integer.class ? ints
                : type == Short.class ? shorts
                : type == Boolean.class && booleans;
    }

    /** Appends the canonical form of a value {@link #writesDirectly} accepted. */
    void write(StringBuilder out, Object value) {
        if (value instanceof String s) {
            CanonicalJson.string(out, s);
        } else {
            // Whole numbers in decimal and true/false: what CanonicalJson writes for their tree nodes.
            out.append(value);
        }
    }
}
