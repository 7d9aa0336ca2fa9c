package com.example;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import jakarta.enterprise.context.ApplicationScoped;

/** A CDI bean with one tool: the release-gate table lists it, so readiness waits for it to be wrapped. */
@ApplicationScoped
public class RefundService {

    @IdempotentTool(
            key = "refund:{invoiceId}:{step}",
            downstreamKey = true,
            downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String issueRefund(String invoiceId, long amountCents) {
        return "refund of " + amountCents + " for " + invoiceId;
    }
}
