package io.idempotent.benchmarks.inprocess;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.internal.Engine;
import io.idempotent.runtime.internal.PayloadCodec;
import io.idempotent.runtime.internal.ResultCodec;
import io.idempotent.runtime.internal.StoreRegistry;
import io.idempotent.runtime.internal.store.OperationStore;
import java.lang.reflect.Constructor;
import java.util.List;
import java.util.Map;

/**
 * A real {@link IdempotentRuntime} (real engine, codecs and heartbeat) whose default store is a
 * stub. The runtime's builder only opens JDBC stores, so the benchmark builds the engine itself
 * and reaches the runtime's private constructor by reflection: a benchmark-only shortcut that
 * fails loudly if the constructor changes.
 */
final class StubRuntime {

    private StubRuntime() {
    }

    /** The mapper the builder uses by default (every module on the class path, ISO dates). */
    static ObjectMapper defaultMapper() {
        return JsonMapper.builder().findAndAddModules().disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();
    }

    static IdempotentRuntime on(OperationStore store, ObjectMapper mapper) {
        try {
            // The runtime's own listener list (empty here), as the builder passes it to the engine.
            Class<?> composite = Class.forName("io.idempotent.runtime.CompositeMetricsListener");
            Constructor<?> listeners = composite.getDeclaredConstructor(List.class);
            listeners.setAccessible(true);
            MetricsListener metrics = (MetricsListener) listeners.newInstance(List.of());
            Engine engine = new Engine(new StoreRegistry(Map.of("default", store)), new PayloadCodec(mapper),
                    new ResultCodec(mapper), metrics);
            Constructor<IdempotentRuntime> constructor = IdempotentRuntime.class.getDeclaredConstructor(Engine.class,
                    composite, List.class);
            constructor.setAccessible(true);
            return constructor.newInstance(engine, metrics, List.of("store default: in-memory stub"));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("IdempotentRuntime's constructor changed; update StubRuntime", e);
        }
    }
}
