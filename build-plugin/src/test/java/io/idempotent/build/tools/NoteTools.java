package io.idempotent.build.tools;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;
import java.util.concurrent.atomic.AtomicInteger;

/** A tool compiled with the processor, woven by the tests. */
public class NoteTools {

    /** How many bodies ran, across every copy of the class (the counter lives in the test's loader). */
    public static final AtomicInteger RUNS = new AtomicInteger();

    @IdempotentTool(key = "note:{ticket}", downstreamKey = false, reconciler = ManualReview.class, retry = Retry.NEVER)
    public String addNote(String ticket, String text) {
        RUNS.incrementAndGet();
        return "noted " + ticket;
    }
}
