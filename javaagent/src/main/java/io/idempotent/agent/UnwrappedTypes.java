package io.idempotent.agent;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The classes whose protocol transformation failed, with the reason, by class loader: the
 * refusal transformation, which runs after the protocol's, makes their tool methods refuse every
 * call instead of letting them load unchanged. Loaders are held weakly.
 */
final class UnwrappedTypes {

    /** Stands for the bootstrap loader, which a weak map cannot hold as {@code null}. */
    private static final Object BOOTSTRAP = new Object();

    private final Map<Object, Map<String, String>> reasons = Collections.synchronizedMap(new WeakHashMap<>());

    void add(String typeName, ClassLoader loader, String reason) {
        reasons.computeIfAbsent(key(loader), k -> Collections.synchronizedMap(new HashMap<>())).put(typeName, reason);
    }

    /** Why {@code typeName} could not be wrapped, or {@code null} if it was not refused. */
    String reason(String typeName, ClassLoader loader) {
        Map<String, String> types = reasons.get(key(loader));
        return types == null ? null : types.get(typeName);
    }

    private static Object key(ClassLoader loader) {
        return loader == null ? BOOTSTRAP : loader;
    }
}
