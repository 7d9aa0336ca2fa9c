package io.idempotent.runtime.binding;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;

/**
 * Captures a generic type at compile time, so that generated bindings (and programmatic callers)
 * can name {@code List<Refund>} as the replay type without reflection on the method:
 * {@code new ResultType<List<Refund>>() {}.type()}.
 *
 * @param <T> the captured type
 */
public abstract class ResultType<T> {

    private final Type type;

    /** Reads the type argument of the anonymous subclass. */
    protected ResultType() {
        Type superclass = getClass().getGenericSuperclass();
        if (!(superclass instanceof ParameterizedType parameterized)) {
            throw new IllegalStateException("ResultType must be created as an anonymous subclass with a type"
                    + " argument, for example new ResultType<List<Refund>>() {}");
        }
        this.type = parameterized.getActualTypeArguments()[0];
    }

    /** The captured type. */
    public final Type type() {
        return type;
    }
}
