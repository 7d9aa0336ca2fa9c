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

    /**
     * Writes this contender has left for later: answers it returned whose rows are not yet in the
     * database (this project's attempt-log answers, written in batches by the store's own thread).
     * The benchmark's window ends only when this is zero, so deferred work is counted; 0 for a
     * contender that writes everything before its call returns.
     */
    default long backlog() throws Exception {
        return 0;
    }

    /** The table whose rows this contender's fresh calls update, for its HOT ratio; null when none. */
    default String updatedTable() {
        return null;
    }

    @Override
    default void close() throws Exception {
    }
}
