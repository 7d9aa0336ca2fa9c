package com.example;

import io.idempotent.runtime.PayloadConflictException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.ToolReadiness;
import io.micronaut.context.ApplicationContext;
import java.nio.file.Files;

/**
 * Starts Micronaut from its shaded jar with -javaagent and calls the bean's tool twice and once with another amount:
 * one refund, or the JVM exits non-zero. (The replay in another JVM is proven by the getting-started and
 * spring-boot-agent projects; this one proves the agent's wrapping in a shaded jar.)
 */
public class Main {

    public static void main(String[] args) throws Exception {
        try (ApplicationContext context = ApplicationContext.run()) {
            RefundService refunds = context.getBean(RefundService.class);
            try (Step step = Step.begin("micronaut-agent-approve-7")) {
                String result = refunds.issueRefund("invoice_7", 700);
                check(refunds.issueRefund("invoice_7", 700).equals(result), "the retry was not replayed");
                try {
                    refunds.issueRefund("invoice_7", 900);
                    check(false, "a changed payload under the same key ran");
                } catch (PayloadConflictException expected) {
                    System.out.println("micronaut: changed payload refused");
                }
            }
            long made = Files.readAllLines(RefundService.PROVIDER).size();
            check(made == 1, "refunds at the provider: " + made + ", expected 1");
            ToolReadiness readiness = ToolReadiness.current();
            check(readiness.ready() && readiness.agentStarted() && !readiness.listed().isEmpty()
                    && readiness.wrapped().equals(readiness.listed()), "not ready: " + readiness.describe());
            System.out.println("micronaut: " + readiness.describe());
            System.out.println("micronaut: " + args[0] + ": one refund at the provider, with the agent");
        }
    }

    private static void check(boolean ok, String failure) {
        if (!ok) {
            System.err.println("micronaut: FAILED: " + failure);
            System.exit(1);
        }
    }
}
