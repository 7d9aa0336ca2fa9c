package io.idempotent.runtime.internal;

import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.AbstractDeserializer;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.deser.std.ContainerDeserializerBase;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Set;

/**
 * Whether a mapper can create values of a type from JSON, found from the deserializers it builds
 * for the type, without any value: a definition Jackson refuses (a {@code @JsonCreator} whose
 * parameters have no names it can see), a class with no way to create it, an interface or
 * abstract class without type information, at the root or in a property, element or map value.
 */
final class ReadableTypes {

    private ReadableTypes() {
    }

    /** Why {@code mapper} can never read {@code type}, naming types and properties only, or null. */
    static String problem(ObjectMapper mapper, JavaType type) {
        DeserializationConfig config = mapper.getDeserializationConfig();
        DefaultDeserializationContext context = ((DefaultDeserializationContext) mapper.getDeserializationContext())
                .createDummyInstance(config);
        try {
            JsonDeserializer<Object> root = context.findRootValueDeserializer(type);
            return problem(context, root, type.getRawClass().getName(),
                    Collections.newSetFromMap(new IdentityHashMap<>()));
        } catch (JsonMappingException e) {
            // Jackson's definition errors name types and members, never values (there is none).
            return "its definition is refused (" + e.getClass().getSimpleName() + ": " + e.getOriginalMessage() + ")";
        }
    }

    private static String problem(DefaultDeserializationContext context, JsonDeserializer<?> deserializer,
            String where, Set<JsonDeserializer<?>> seen) throws JsonMappingException {
        if (deserializer == null || !seen.add(deserializer)) {
            return null;
        }
        if (deserializer instanceof AbstractDeserializer) {
            // Reached without a type deserializer of its own: unless the base type names its
            // subtypes, nothing says which class to create.
            JavaType abstractType = context.constructType(deserializer.handledType());
            return context.getFactory().findTypeDeserializer(context.getConfig(), abstractType) == null
                    ? where + " is an interface or abstract class without type information (@JsonTypeInfo)" : null;
        }
        if (deserializer instanceof BeanDeserializerBase bean) {
            if (!bean.getValueInstantiator().canInstantiate()) {
                return where + " has no creator the mapper can call (a no-argument constructor, or a @JsonCreator"
                        + " whose parameters are named with @JsonProperty)";
            }
            for (Iterator<SettableBeanProperty> it = bean.properties(); it.hasNext(); ) {
                SettableBeanProperty property = it.next();
                if (property.getValueTypeDeserializer() == null) {
                    String inside = problem(context, property.getValueDeserializer(),
                            where + "." + property.getName(), seen);
                    if (inside != null) {
                        return inside;
                    }
                }
            }
            return null;
        }
        if (deserializer instanceof ContainerDeserializerBase<?> container) {
            return problem(context, container.getContentDeserializer(), where + "[]", seen);
        }
        return null;
    }
}
