package io.idempotent.runtime.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.POJONode;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.databind.ser.ContextualSerializer;
import com.fasterxml.jackson.databind.ser.ResolvableSerializer;
import com.fasterxml.jackson.databind.type.CollectionType;
import java.io.IOException;
import java.util.Set;

/**
 * Marks where a {@link Set} was in a payload's JSON tree, so that the canonical form can order its
 * elements (a set's iteration order is not part of its value, and differs between JVMs: hash
 * salts, identity hash codes). Jackson writes a set as a plain array, so the application's own
 * serializer for the set is kept and wrapped: {@code [MARKER, <what it wrote>]}, where MARKER is
 * an object no payload can contain.
 */
final class SetOrderMarker {

    private static final Object MARKER = new Object() {
        @Override
        public String toString() {
            return "a set";
        }
    };

    private SetOrderMarker() {
    }

    /** The module that wraps every set serializer. */
    static SimpleModule module() {
        SimpleModule module = new SimpleModule("idempotent-set-order");
        module.setSerializerModifier(new BeanSerializerModifier() {
            @Override
            public JsonSerializer<?> modifyCollectionSerializer(SerializationConfig config, CollectionType type,
                    BeanDescription description, JsonSerializer<?> serializer) {
                return Set.class.isAssignableFrom(type.getRawClass()) ? new Marked(serializer) : serializer;
            }
        });
        return module;
    }

    /** The JSON a set's serializer wrote, if {@code node} is a marked set; else null. */
    static JsonNode setContent(JsonNode node) {
        if (node.isArray() && node.size() == 2 && node.get(0) instanceof POJONode pojo && pojo.getPojo() == MARKER) {
            return node.get(1);
        }
        return null;
    }

    private static final class Marked extends JsonSerializer<Object> implements ContextualSerializer,
            ResolvableSerializer {

        private final JsonSerializer<Object> delegate;

        @SuppressWarnings("unchecked")
        Marked(JsonSerializer<?> delegate) {
            this.delegate = (JsonSerializer<Object>) delegate;
        }

        @Override
        public void serialize(Object value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeStartArray();
            gen.writeEmbeddedObject(MARKER);
            delegate.serialize(value, gen, provider);
            gen.writeEndArray();
        }

        @Override
        public void serializeWithType(Object value, JsonGenerator gen, SerializerProvider provider,
                TypeSerializer typeSerializer) throws IOException {
            gen.writeStartArray();
            gen.writeEmbeddedObject(MARKER);
            delegate.serializeWithType(value, gen, provider, typeSerializer);
            gen.writeEndArray();
        }

        @Override
        public boolean isEmpty(SerializerProvider provider, Object value) {
            return delegate.isEmpty(provider, value);
        }

        @Override
        public JsonSerializer<?> createContextual(SerializerProvider provider, BeanProperty property)
                throws JsonMappingException {
            if (delegate instanceof ContextualSerializer contextual) {
                JsonSerializer<?> created = contextual.createContextual(provider, property);
                return created == delegate ? this : new Marked(created);
            }
            return this;
        }

        @Override
        public void resolve(SerializerProvider provider) throws JsonMappingException {
            if (delegate instanceof ResolvableSerializer resolvable) {
                resolvable.resolve(provider);
            }
        }
    }
}
