package com.example;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A Micronaut bean whose tool method the agent wraps at start (a shaded jar is a plain class path); its provider writes each refund to a file. */
@Singleton
public class RefundService {

    static final Path PROVIDER = Path.of("target", "provider-refunds.txt");

    @IdempotentTool(
            key = "refund:{invoiceId}:{step}",
            downstreamKey = true,
            downstreamRetention = "P1D",
            retry = Retry.UNCERTAIN)
    public String issueRefund(String invoiceId, long amountCents) {
        try {
            Files.writeString(PROVIDER, invoiceId + " " + amountCents + "\n", StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return "refund of " + amountCents + " for " + invoiceId + " by pid " + ProcessHandle.current().pid();
    }
}
