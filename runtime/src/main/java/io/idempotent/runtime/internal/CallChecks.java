package io.idempotent.runtime.internal;

import io.idempotent.runtime.InvalidOperationKeyException;
import io.idempotent.runtime.ResultNotReplayableException;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.store.OperationStore;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a call must pass before anything is claimed: a well-formed operation key, names that fit
 * the store's columns, a configured store, a tool name no other class declares on that store, and a
 * result type the runtime's mapper can read back (a result that could not be replayed is refused
 * before the body runs, not after). It remembers the result type each tool was called with, which
 * an operator's settlement by hand is checked against.
 */
final class CallChecks {

    /** The fix for a result type the mapper cannot read back, whichever check found it. */
    static final String UNREADABLE_TYPE_ADVICE = "Fix the type as the release gate's [IdemResultReadBack] says (a record,"
            + " a no-argument constructor, a @JsonCreator whose parameters are named with @JsonProperty, @JsonTypeInfo"
            + " on an interface), or give the runtime an ObjectMapper with the module that reads it"
            + " (jackson-module-kotlin for a Kotlin class); see docs/troubleshooting.md";

    private final StoreRegistry stores;
    private final ResultCodec results;
    /** The return type each tool was last called with, by store and tool, for operators settling by hand. */
    private final Map<String, Map<String, Type>> resultTypes = new ConcurrentHashMap<>();
    /** Which class holds each tool name on each store. */
    private final ToolOwners owners = new ToolOwners();

    /** Checks against {@code stores} and {@code results}' mapper. */
    CallChecks(StoreRegistry stores, ResultCodec results) {
        this.stores = stores;
        this.results = results;
    }

    /**
     * The return type {@code tool} of {@code store} was called with in this JVM, if it was: what an
     * operator's settlement without an explicit type is checked against.
     */
    Optional<Type> resultType(String store, String tool) {
        return Optional.ofNullable(resultTypes.getOrDefault(store, Map.of()).get(tool));
    }

    /**
     * Checks a call of {@code policy}'s tool, declared by {@code toolClass} (null when the caller
     * brought a policy of its own), and returns the store it claims on; throws when nothing may be
     * claimed.
     */
    OperationStore check(ToolPolicy policy, String key, Type resultType, Class<?> toolClass) {
        String tool = policy.name();
        String problem = OperationKeys.problem(key);
        if (problem != null) {
            throw new InvalidOperationKeyException(tool, null, "the operation key " + problem + "; nothing was claimed");
        }
        StoreColumns.requireFits(tool, key, "tool name", "tool", tool);
        OperationStore store = stores.get(policy.store(), tool);
        if (toolClass != null) {
            owners.requireSole(policy, toolClass);
        }
        String unreadable = results.readProblem(resultType);
        if (unreadable != null) {
            throw new ResultNotReplayableException(tool, key, "the result type " + resultType.getTypeName()
                    + " cannot be read back by the runtime's ObjectMapper: " + unreadable + "; nothing was claimed and"
                    + " the body did not run", UNREADABLE_TYPE_ADVICE, null);
        }
        // Looked up by the names' cached hashes, written only when it changes: no key is built per call.
        Map<String, Type> typesOfStore = resultTypes.computeIfAbsent(policy.store(), name -> new ConcurrentHashMap<>());
        if (resultType != null && typesOfStore.get(tool) != resultType) {
            typesOfStore.put(tool, resultType);
        }
        return store;
    }
}
