package com.example;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A tool woven at build time. Its body touches no class of the library, so that a body run outside
 * the protocol (no runtime, no agent) would show as a refund at the provider, not as an error.
 */
public class RefundTools {

    /** What the provider did, one line per refund, across every JVM that runs the tool. */
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

    /** The refunds the provider made for {@code invoiceId}. */
    static long refunds(String invoiceId) throws IOException {
        if (!Files.exists(PROVIDER)) {
            return 0;
        }
        return Files.readAllLines(PROVIDER).stream().filter(l -> l.startsWith(invoiceId + " ")).count();
    }
}
