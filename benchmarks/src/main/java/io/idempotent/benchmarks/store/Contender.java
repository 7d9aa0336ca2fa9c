package io.idempotent.benchmarks.store;

import java.util.List;

/**
 * One way of answering "has this operation been done?" against PostgreSQL, measured beside the
 * others on the same server and pool. Each call checks that it took the intended path (a fresh
 * call claimed, a replay found the earlier call), so a broken set-up fails the run instead of
 * measuring something else.
 */
interface Contender extends AutoCloseable {

    /** The column heading. */
    String name();

    /** A call with a new operation id: claim it, run the (trivial) body, record the outcome. */
    void fresh(String id) throws Exception;

    /** Makes {@code ids} completed operations, so that {@link #replay} finds them. */
    default void prepareReplays(List<String> ids) throws Exception {
        for (String id : ids) {
            fresh(id);
        }
    }

    /** A call with the id of a completed operation: answered from the store, no body. */
    void replay(String id) throws Exception;

    @Override
    default void close() throws Exception {
    }
}
