package io.idempotent.temporal;

import java.util.List;

/**
 * What one run of the refund desk workflow does: one refund activity per amount, inside
 * {@code step} when it is not null; waits for the release signal before the second refund when
 * {@code waitBeforeSecond}; then continues as new {@code moreRuns} times with the same plan.
 *
 * @param local whether the refunds run as local activities
 */
public record DeskPlan(String invoiceId, List<Long> amounts, String step, long startToCloseMillis,
        int maxAttempts, boolean waitBeforeSecond, int moreRuns, boolean local) {

    /** One refund of {@code amountCents}, no step, generous timeout, ten attempts. */
    public static DeskPlan refund(String invoiceId, long... amountCents) {
        return new DeskPlan(invoiceId, java.util.Arrays.stream(amountCents).boxed().toList(), null, 20_000, 10,
                false, 0, false);
    }

    public DeskPlan inStep(String stepKey) {
        return new DeskPlan(invoiceId, amounts, stepKey, startToCloseMillis, maxAttempts, waitBeforeSecond, moreRuns,
                local);
    }

    public DeskPlan startToCloseMillis(long millis) {
        return new DeskPlan(invoiceId, amounts, step, millis, maxAttempts, waitBeforeSecond, moreRuns, local);
    }

    public DeskPlan maxAttempts(int attempts) {
        return new DeskPlan(invoiceId, amounts, step, startToCloseMillis, attempts, waitBeforeSecond, moreRuns, local);
    }

    public DeskPlan waitingBeforeSecond() {
        return new DeskPlan(invoiceId, amounts, step, startToCloseMillis, maxAttempts, true, moreRuns, local);
    }

    public DeskPlan continuedAsNew(int runs) {
        return new DeskPlan(invoiceId, amounts, step, startToCloseMillis, maxAttempts, waitBeforeSecond, runs, local);
    }

    public DeskPlan asLocalActivities() {
        return new DeskPlan(invoiceId, amounts, step, startToCloseMillis, maxAttempts, waitBeforeSecond, moreRuns,
                true);
    }
}
