package io.idempotent.runtime;

import io.idempotent.runtime.internal.RuntimeConfiguration;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Whether this JVM may take tool calls: every listed tool is wrapped ({@link ToolReadiness}) and
 * every store of the runtime answers ({@link StoreReachability}). The one rule behind the
 * framework health checks (Spring Boot's and Micronaut's {@code IdempotentHealthIndicator}, the
 * MicroProfile {@code IdempotentReadinessCheck}), so that they all say the same thing.
 *
 * <p>Its {@linkplain #details() details} name tools and stores, never payloads, results, keys or
 * error bodies.
 *
 * @param tools which listed tools run through the protocol
 * @param stores whether each store answered; a single check named {@code "runtime"} when the
 *     runtime itself could not be had (closed, cleared, misconfigured)
 */
public record ReadinessReport(ToolReadiness tools, List<StoreCheck> stores) {

    /**
     * How long a check waits for the stores unless told otherwise: 2 s, room for a pool's first
     * connection. A Kubernetes probe's {@code timeoutSeconds} must be above it (its default, 1 s, is not).
     */
    public static final Duration DEFAULT_BOUND = Duration.ofSeconds(2);

    /** The setting that bounds the wait for the stores ({@code -Didempotent.health.timeout=PT0.5S}, {@code IDEMPOTENT_HEALTH_TIMEOUT}). */
    public static final String TIMEOUT_SETTING = "health.timeout";

    /** Copies the store checks. */
    public ReadinessReport {
        Objects.requireNonNull(tools, "tools");
        stores = List.copyOf(stores);
    }

    /**
     * Checks now, waiting for the stores at most the configured {@value #TIMEOUT_SETTING} (default
     * {@link #DEFAULT_BOUND}); a configuration the runtime refuses makes the check not ready.
     *
     * @param runtime gives the application's runtime, as for {@link #check(Supplier, Duration)}
     */
    public static ReadinessReport check(Supplier<IdempotentRuntime> runtime) {
        Duration bound;
        try {
            bound = RuntimeConfiguration.fromSystem().duration(TIMEOUT_SETTING).orElse(DEFAULT_BOUND);
        } catch (IdempotencyException e) {
            return new ReadinessReport(ToolReadiness.current(), List.of(new StoreCheck("runtime", false,
                    e.getMessage())));
        }
        return check(runtime, bound);
    }

    /**
     * Checks now: the listed tools, then each store of the runtime that {@code runtime} gives,
     * waiting at most {@code bound} for the stores.
     *
     * @param runtime gives the application's runtime (its bean, or {@link IdempotentRuntime#global()});
     *     a refusal it throws makes the check not ready, with its message
     * @param bound how long the stores' answers are waited for
     */
    public static ReadinessReport check(Supplier<IdempotentRuntime> runtime, Duration bound) {
        Objects.requireNonNull(runtime, "runtime");
        ToolReadiness tools = ToolReadiness.current();
        IdempotentRuntime found;
        try {
            found = runtime.get();
        } catch (IdempotencyException e) {
            return new ReadinessReport(tools, List.of(new StoreCheck("runtime", false, e.getMessage())));
        }
        return new ReadinessReport(tools, StoreReachability.check(found, bound));
    }

    /** Every listed tool is wrapped and every store answered. */
    public boolean ready() {
        return tools.ready() && stores.stream().allMatch(StoreCheck::reachable);
    }

    /**
     * What a health endpoint shows, flat (MicroProfile Health takes strings, numbers and booleans
     * only): {@code listed} and {@code wrapped} (how many tools), {@code unwrapped} (the names of
     * those not wrapped, comma-separated, when there are any), {@code agent} (whether the
     * javaagent started), {@code tools} ({@link ToolReadiness#describe()}, one line for a person),
     * then {@code store.NAME}: {@code "reachable"} or what failed.
     */
    public Map<String, Object> details() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("listed", (long) tools.listed().size());
        details.put("wrapped", (long) tools.wrapped().size());
        if (!tools.unwrapped().isEmpty()) {
            details.put("unwrapped", String.join(",", tools.unwrapped()));
        }
        details.put("agent", tools.agentStarted());
        details.put("tools", tools.describe());
        for (StoreCheck store : stores) {
            details.put("store." + store.store(), store.reachable() ? "reachable" : store.detail());
        }
        return details;
    }
}
