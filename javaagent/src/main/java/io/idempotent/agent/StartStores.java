package io.idempotent.agent;

import io.idempotent.policy.internal.ConfigurationSources;
import io.idempotent.policy.internal.ConfiguredStores;
import io.idempotent.policy.internal.ListedTool;
import java.util.Set;
import java.util.TreeSet;

/**
 * The stores the JVM's configuration names (agent arguments, system properties, environment),
 * checked when the agent starts against the stores of the tools the release-gate tables list, by
 * the rules the runtime applies again at the first call ({@link ConfiguredStores}): a store no
 * listed tool uses is a misspelt name until {@code stores.loaded-later} names it, and the listed
 * tools of the default store never run on the embedded file while other stores are configured.
 * When the system class loader sees no table (a Spring Boot jar keeps the application's own
 * inside), the tools are not known yet and the runtime checks at the first call.
 */
final class StartStores {

    private StartStores() {
    }

    /**
     * The configured stores, read after the agent published its arguments.
     *
     * @throws IllegalArgumentException saying what is wrong and what to do, so that the agent does
     *     not start and every tool refuses its calls
     */
    static ConfiguredStores check(ListedTools listed) {
        ConfiguredStores configured = ConfiguredStores.of(ConfigurationSources.fromSystem());
        if (listed.all().isEmpty()) {
            return configured;
        }
        Set<String> used = new TreeSet<>();
        for (ListedTool tool : listed.all()) {
            used.add(tool.store());
        }
        String problem = configured.problemWith(used);
        if (problem != null) {
            throw new IllegalArgumentException(problem + ". " + ConfiguredStores.ADVICE);
        }
        return configured;
    }
}
