package com.example;

import io.idempotent.runtime.PayloadConflictException;
import io.idempotent.runtime.Step;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Run in several JVMs (exec:exec executions), none with -javaagent unless said: the tool class was
 * woven at build time, so every JVM that loads it runs it through the protocol. Exits non-zero when
 * the provider's refunds are not what one claim per operation makes.
 */
public class Main {

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        RefundTools tools = new RefundTools();
        switch (mode) {
            case "first" -> {
                String first = call(tools, "approve-842", "invoice_842", 4200);
                String again = call(tools, "approve-842", "invoice_842", 4200); // a retry: replayed
                Checks.check(first.equals(again), "the retry was not replayed: " + first + " / " + again);
                try (Step step = Step.begin("approve-842")) {
                    tools.issueRefund("invoice_842", 9900); // the same operation with another amount
                    Checks.check(false, "a changed payload under the same key ran");
                } catch (PayloadConflictException expected) {
                    System.out.println("build-plugin: changed payload refused: " + expected.getClass().getSimpleName());
                }
                Files.writeString(Path.of("target", "first-result.txt"), first);
                Checks.expectRefunds("invoice_842", 1);
            }
            case "second" -> {
                String replayed = call(tools, "approve-842", "invoice_842", 4200);
                Checks.check(replayed.equals(Files.readString(Path.of("target", "first-result.txt"))),
                        "the second JVM did not replay the first one's result: " + replayed);
                Checks.expectRefunds("invoice_842", 1);
            }
            case "once" -> {
                // args[1] names the run (jdk25, agent): a step and an invoice of its own.
                String invoice = "invoice_" + args[1];
                String first = call(tools, "approve-" + args[1], invoice, 100);
                String again = call(tools, "approve-" + args[1], invoice, 100);
                Checks.check(first.equals(again), "the retry was not replayed: " + first + " / " + again);
                Checks.expectRefunds(invoice, 1);
            }
            default -> throw new IllegalArgumentException(mode);
        }
        System.out.println("build-plugin: " + String.join(" ", args) + ": one refund per operation on Java "
                + Runtime.version().feature());
    }

    private static String call(RefundTools tools, String step, String invoice, long cents) {
        try (Step s = Step.begin(step)) {
            return tools.issueRefund(invoice, cents);
        }
    }
}
