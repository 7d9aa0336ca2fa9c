package io.idempotent.runtime.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.module.SimpleSerializers;
import io.idempotent.policy.internal.OnePassTypes;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;

/**
 * Payload values that hashing would consume or cannot see, refused before any of them is touched:
 * <ul>
 *   <li>one-pass sources ({@link OnePassTypes}, the list the processor refuses payload types by:
 *       iterators, streams, inputs, readers, channels, directory streams): serialising one uses it
 *       up, so the body would get an empty or closed source;
 *   <li>functions (a lambda or method reference, any hidden or synthetic class, or an object
 *       whose only content is the method of a functional interface): their JSON is {@code {}}, so
 *       a changed function would hash like the first one and be answered with its result.
 * </ul>
 * The module gives such a type a serializer that refuses before it reads anything; Jackson walks
 * the same positions it would hash (record components, bean properties, map values, collection
 * elements, recursively) and reports where it met the value, as the path of a
 * {@link Refused} exception.
 */
final class UnhashableValues {

    /** A one-pass source, with the words a message uses for it. */
    private record OnePass(Class<?> type, String words) {
    }

    /** The one-pass sources, in the order they are tested (each a JDK type, loaded by the bootstrap loader). */
    private static final List<OnePass> ONE_PASS = OnePassTypes.ALL.stream()
            .map(type -> new OnePass(jdkType(type.className()), type.words())).toList();

    private static Class<?> jdkType(String name) {
        try {
            return Class.forName(name, false, null);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the JDK has no " + name, e);
        }
    }

    private UnhashableValues() {
    }

    /**
     * Where the refused value is below the payload argument {@code name}: {@code order.items[2]};
     * a map's keys are data, so a map entry is {@code [?]}.
     */
    static String path(String name, Refused refused) {
        return JsonPaths.render(name, refused.getPath());
    }

    /** A value was refused; the message says what it is, never what it holds. */
    static final class Refused extends JsonMappingException {
        private static final long serialVersionUID = 1L;

        Refused(JsonGenerator generator, String what) {
            super(generator, what);
        }
    }

    /** The module that refuses such values (register it last: it must win over other modules). */
    static SimpleModule module() {
        SimpleModule module = new SimpleModule("idempotent-unhashable-values");
        module.setSerializers(new SimpleSerializers() {
            @Override
            public JsonSerializer<?> findSerializer(SerializationConfig config, JavaType type,
                    BeanDescription description) {
                String what = what(type.getRawClass());
                return what == null ? null : new Refusing(what);
            }
        });
        return module;
    }

    /** What is wrong with values of {@code type} as payload, or null when nothing is. */
    static String what(Class<?> type) {
        for (OnePass source : ONE_PASS) {
            if (source.type().isAssignableFrom(type)) {
                return source.words() + " (" + type.getName() + "): a one-pass source, which hashing would use"
                        + " up before the body runs";
            }
        }
        if (type.isHidden() || type.isSynthetic() || onlyAFunction(type)) {
            return "a lambda or function object (" + readable(type) + "): its JSON is {}, so a changed function would"
                    + " hash like the first and be answered with its result";
        }
        return null;
    }

    /** A hidden class's name without its address suffix ({@code Tools$$Lambda$51}). */
    private static String readable(Class<?> type) {
        String name = type.getName();
        int slash = name.indexOf('/');
        return slash < 0 ? name : name.substring(0, slash);
    }

    /**
     * Whether {@code type} is an object whose only content is the method of a functional
     * interface: a class (not a record, enum or array) that implements one and has no instance
     * field of its own but captured ones (an anonymous {@code new Runnable() {...}}).
     */
    private static boolean onlyAFunction(Class<?> type) {
        if (type.isInterface() || type.isArray() || type.isPrimitive() || type.isRecord() || type.isEnum()) {
            return false;
        }
        boolean functional = false;
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers()) && !field.isSynthetic()) {
                    return false;
                }
            }
            for (Class<?> implemented : c.getInterfaces()) {
                functional |= isFunctionalInterface(implemented);
            }
        }
        return functional;
    }

    /**
     * A JDK interface counts when it says so ({@code @FunctionalInterface}: {@code Runnable},
     * {@code Supplier} ...; not {@code Comparable} or {@code Iterable}); an application's own
     * interface also when it has exactly one abstract method.
     */
    private static boolean isFunctionalInterface(Class<?> type) {
        if (type.isAnnotationPresent(FunctionalInterface.class)) {
            return true;
        }
        String name = type.getName();
        if (name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("com.fasterxml.")) {
            return false;
        }
        int abstractMethods = 0;
        for (Method method : type.getMethods()) {
            if (Modifier.isAbstract(method.getModifiers()) && !isObjectMethod(method)) {
                abstractMethods++;
            }
        }
        return abstractMethods == 1;
    }

    private static boolean isObjectMethod(Method method) {
        try {
            Object.class.getMethod(method.getName(), method.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** Refuses before it reads the value. */
    private static final class Refusing extends JsonSerializer<Object> {
        private final String what;

        Refusing(String what) {
            this.what = what;
        }

        @Override
        public void serialize(Object value, JsonGenerator generator, SerializerProvider provider) throws Refused {
            throw new Refused(generator, what);
        }

        @Override
        public void serializeWithType(Object value, JsonGenerator generator, SerializerProvider provider,
                com.fasterxml.jackson.databind.jsontype.TypeSerializer types) throws Refused {
            throw new Refused(generator, what);
        }
    }
}
