package io.idempotent.processor;

import java.util.List;
import javax.lang.model.type.TypeMirror;

/** One piece of a parsed key template. */
sealed interface KeyPart {

    /** Literal text, copied into the key. */
    record Literal(String text) implements KeyPart {
    }

    /**
     * {@code {step}}: the workflow's step key, from the context parameter's step entry if the
     * method has one, else from the thread's {@code Step}.
     */
    record StepKey() implements KeyPart {
    }

    /** {@code {context.NAME}}: entry NAME of the method's context parameter. */
    record ContextEntry(String placeholder, String name) implements KeyPart {
    }

    /**
     * {@code {param}} or {@code {param.a.b}}: a parameter's value, read by position, then through
     * a chain of accessors.
     */
    record Argument(String placeholder, int index, TypeMirror type, List<Accessor> accessors) implements KeyPart {
    }

    /**
     * One step of an accessor chain.
     *
     * @param path the placeholder up to and including this step, for messages
     * @param code how to read it, appended to the previous value ({@code .id()}, {@code .getId()},
     *     {@code .id})
     * @param type what it yields
     */
    record Accessor(String path, String code, TypeMirror type) {
    }
}
