package com.example;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A tool as the README and docs/getting-started.md show one; its "provider" writes each refund it makes to a file. */
public class RefundTools {

    /** What the provider did, one line per refund, across every JVM that runs the tool. */
    static final Path PROVIDER = Path.of("target", "provider-refunds.txt");

    @IdempotentTool(
            key = "refund:{invoiceId}:{step}",
            downstreamKey = true,
            downstreamRetention = "P1D",
            retry = Retry.UNCERTAIN)
    public String issueRefund(String invoiceId, long amountCents) {
        String key = OperationContext.current().key();
        try {
            Files.writeString(PROVIDER, key + " " + amountCents + "\n", StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return "refund of " + amountCents + " for " + invoiceId;
    }
}
