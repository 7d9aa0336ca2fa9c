package com.example;

import io.idempotent.runtime.PayloadConflictException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.ToolReadiness;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Runs as a Boot fat jar with the agent and calls the bean's tool: "first" twice and once with
 * another amount, "second" (another JVM) once more. One refund in all, or a non-zero exit status.
 */
@SpringBootApplication
public class Main implements CommandLineRunner {

    private final RefundService refunds;

    public Main(RefundService refunds) {
        this.refunds = refunds;
    }

    public static void main(String[] args) {
        SpringApplication.run(Main.class, args);
    }

    @Override
    public void run(String... args) throws Exception {
        String result;
        try (Step step = Step.begin("boot-approve-5")) {
            result = refunds.issueRefund("invoice_5", 500);
            if (args[0].equals("first")) {
                check(refunds.issueRefund("invoice_5", 500).equals(result), "the retry was not replayed");
                try {
                    refunds.issueRefund("invoice_5", 1500);
                    check(false, "a changed payload under the same key ran");
                } catch (PayloadConflictException expected) {
                    System.out.println("boot: changed payload refused");
                }
                Files.writeString(Path.of("target", "first-result.txt"), result);
            } else {
                check(result.equals(Files.readString(Path.of("target", "first-result.txt"))),
                        "the second JVM did not replay the first one's result: " + result);
            }
        }
        long made = Files.readAllLines(RefundService.PROVIDER).size();
        check(made == 1, "refunds at the provider: " + made + ", expected 1");
        // The runtime's view, read through Boot's loader: the agent started and wrapped the listed tool.
        ToolReadiness readiness = ToolReadiness.current();
        check(readiness.ready() && readiness.agentStarted() && !readiness.listed().isEmpty()
                && readiness.wrapped().equals(readiness.listed()), "not ready: " + readiness.describe());
        System.out.println("boot: " + readiness.describe());
        System.out.println("boot: " + args[0] + ": one refund at the provider on java "
                + Runtime.version().feature() + ", with the agent");
    }

    private static void check(boolean condition, String failure) {
        if (!condition) {
            throw new IllegalStateException("boot: FAILED: " + failure);
        }
    }
}
