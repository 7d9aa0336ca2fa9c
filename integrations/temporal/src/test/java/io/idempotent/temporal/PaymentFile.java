package io.idempotent.temporal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The downstream double shared by several JVMs: a payment ledger with no key of its own that
 * appends one line per payment to a file, forced to disk before the payment returns, so a payment
 * made by a JVM killed right after it still counts.
 */
public final class PaymentFile {

    private final Path file;

    public PaymentFile(Path file) {
        this.file = file;
    }

    /** Pays a refund and returns its id, which names the JVM that paid. */
    public String pay(String invoiceId, long amountCents) {
        String id = "pay_" + invoiceId + "_" + amountCents + "_by_" + ProcessHandle.current().pid();
        try (var channel = java.nio.channels.FileChannel.open(file, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            channel.write(java.nio.ByteBuffer.wrap((id + "\n").getBytes(StandardCharsets.UTF_8)));
            channel.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return id;
    }

    /** The file. */
    public Path file() {
        return file;
    }

    /** Every payment made so far, by any JVM. */
    public List<String> payments() {
        try {
            return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
