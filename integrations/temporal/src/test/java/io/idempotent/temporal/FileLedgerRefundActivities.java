package io.idempotent.temporal;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;
import java.util.concurrent.CountDownLatch;

/**
 * A refund tool whose ledger lives in a file shared by JVMs, with no downstream key: an
 * uncertain outcome goes to a person. Its short lease lets a test see a dead worker's lease
 * expire within seconds. In a worker that is to be killed inside the body, the body makes the
 * effect, says so on standard output and then never returns.
 */
public class FileLedgerRefundActivities implements RefundActivities {

    private final PaymentFile ledger;
    private final boolean stallAfterTheEffect;

    public FileLedgerRefundActivities(PaymentFile ledger, boolean stallAfterTheEffect) {
        this.ledger = ledger;
        this.stallAfterTheEffect = stallAfterTheEffect;
    }

    @Override
    @IdempotentTool(key = "refund:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE, name = "temporal_file_refund", lease = "PT2S")
    public String refund(String invoiceId, long amountCents) {
        String id = ledger.pay(invoiceId, amountCents);
        if (stallAfterTheEffect) {
            System.out.println("effect made " + id);
            try {
                new CountDownLatch(1).await(); // until the test kills this JVM
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("the stalled body was interrupted");
        }
        return id;
    }
}
