package io.idempotent.runtime.internal.store;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Client-side group commit of one kind of statement of a store (issue 39): requests that callers
 * send while another of the same kind is in flight wait in a queue, and the next of them to run
 * takes every one queued (at most {@link #MAX_BATCH}, each operation at most once) into one
 * statement, and hands each caller its own outcome. A lone caller never waits: it finds nothing in
 * flight and sends its request alone, as the single statement it always was. When the server
 * refuses the batch with nothing written (a refused value, SQLState class 22 or 23, or the
 * transaction chosen as a deadlock's victim, 40P01), every request in it is sent again alone by
 * its own caller, so that one row never fails another's; any other failure (a lost connection, after which the batch
 * may have committed) is each caller's own, as its single statement's would have been.
 *
 * @param <I> one caller's request
 * @param <O> its outcome
 */
final class GroupCommit<I, O> {

    /** The most requests one statement carries. */
    static final int MAX_BATCH = 64;

    /** What one kind of statement does alone and together. */
    interface Statements<I, O> {

        /** The operation {@code request} changes: a batch holds each at most once. */
        Object operation(I request);

        /**
         * Sends {@code batch} as one statement; returns each request's outcome in its order, null
         * for one that must be sent again alone (the statement wrote nothing for it).
         */
        List<O> together(List<I> batch) throws SQLException;

        /** Sends {@code request} as its own statement. */
        O alone(I request);

        /** The caller's failure when a batch failed with {@code e} and may have been written. */
        RuntimeException failed(I request, SQLException e);
    }

    private static final class Waiting<I, O> {
        final I request;
        final Thread thread = Thread.currentThread();
        /** Answered: {@link #result} or {@link #failure} is set. */
        volatile boolean done;
        /** Not carried by a batch: its caller sends it alone, on its own thread. */
        volatile boolean handedBack;
        O result;
        RuntimeException failure;

        Waiting(I request) {
            this.request = request;
        }
    }

    private final Statements<I, O> statements;
    private final ConcurrentLinkedQueue<Waiting<I, O>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean inFlight = new AtomicBoolean();

    GroupCommit(Statements<I, O> statements) {
        this.statements = statements;
    }

    /**
     * Sends {@code request}, alone or in the batch of the requests queued with it. A request that
     * no batch carries (the only one taken, a second one for the same operation, one the batch
     * wrote nothing for) is sent alone by its own caller, as it would have been without batches.
     */
    O send(I request) {
        Waiting<I, O> me = new Waiting<>(request);
        queue.add(me);
        while (!me.done && !me.handedBack) {
            if (inFlight.compareAndSet(false, true)) {
                try {
                    lead(me);
                } finally {
                    inFlight.set(false);
                    Waiting<I, O> next = queue.peek();
                    if (next != null) {
                        LockSupport.unpark(next.thread);
                    }
                }
            } else if (!me.done && !me.handedBack) {
                // Woken when its batch is answered, or when it may run the next one; the bound
                // only guards against a wake-up missed between the check and the park.
                LockSupport.parkNanos(this, 1_000_000L);
            }
        }
        if (!me.done) {
            return statements.alone(request);
        }
        if (me.failure != null) {
            throw me.failure;
        }
        return me.result;
    }

    /** Takes the queued requests and sends them; called with {@link #inFlight} held by {@code me}. */
    private void lead(Waiting<I, O> me) {
        List<Waiting<I, O>> batch = new ArrayList<>();
        Set<Object> operations = new HashSet<>();
        Waiting<I, O> w;
        while (batch.size() < MAX_BATCH && (w = queue.poll()) != null) {
            if (operations.add(statements.operation(w.request))) {
                batch.add(w);
            } else {
                // A second request for the same operation is sent alone by its own caller, as
                // without batches: the row's primary key and guards decide between the two.
                handBack(w);
            }
        }
        if (batch.size() == 1 && batch.get(0) == me) {
            // Alone with nothing queued: sent at once, while later requests queue behind it.
            try {
                answer(me, statements.alone(me.request), null);
            } catch (RuntimeException e) {
                answer(me, null, e);
            }
        } else if (batch.size() == 1) {
            handBack(batch.get(0));
        } else if (batch.size() > 1) {
            run(batch);
        }
    }

    private void run(List<Waiting<I, O>> batch) {
        List<I> requests = new ArrayList<>();
        for (Waiting<I, O> w : batch) {
            requests.add(w.request);
        }
        List<O> outcomes;
        try {
            outcomes = statements.together(requests);
        } catch (SQLException e) {
            for (Waiting<I, O> w : batch) {
                if (nothingWritten(e)) {
                    handBack(w);
                } else {
                    answer(w, null, statements.failed(w.request, e));
                }
            }
            return;
        } catch (RuntimeException e) {
            for (Waiting<I, O> w : batch) {
                answer(w, null, e);
            }
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            if (outcomes.get(i) == null) {
                handBack(batch.get(i));
            } else {
                answer(batch.get(i), outcomes.get(i), null);
            }
        }
    }

    /** Whether the server refused the whole statement before anything of it was written. */
    private static boolean nothingWritten(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("22") || state.startsWith("23") || state.equals("40P01"));
    }

    private static <I, O> void handBack(Waiting<I, O> w) {
        w.handedBack = true;
        LockSupport.unpark(w.thread);
    }

    private static <I, O> void answer(Waiting<I, O> w, O result, RuntimeException failure) {
        w.result = result;
        w.failure = failure;
        w.done = true;
        LockSupport.unpark(w.thread);
    }
}
