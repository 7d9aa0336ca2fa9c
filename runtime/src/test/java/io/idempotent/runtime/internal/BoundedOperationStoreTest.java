package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.internal.store.OperationStore;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bounded embedded store decorates every operation of the store it wraps. The store's
 * operations have no default bodies, so the compiler asks for each; this keeps it so: a default
 * method added to {@link OperationStore} would run the interface's fallback here instead of the
 * wrapped store's own statement (as the first defaults did: a lease renewal one key at a time, a
 * claim release as a plain failure record, an attempt-log listener never registered).
 */
class BoundedOperationStoreTest {

    @Test
    void everyOperationOfTheStoreIsDelegatedNotLeftToTheInterfacesDefault() {
        List<String> inherited = Arrays.stream(OperationStore.class.getMethods())
                .filter(m -> !Modifier.isStatic(m.getModifiers()))
                .filter(m -> !declaredBy(BoundedOperationStore.class, m))
                .map(Method::getName)
                .sorted()
                .toList();

        assertThat(inherited).as("operations of OperationStore that BoundedOperationStore does not delegate")
                .isEmpty();
    }

    private static boolean declaredBy(Class<?> type, Method m) {
        try {
            type.getDeclaredMethod(m.getName(), m.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
