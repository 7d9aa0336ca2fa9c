package com.example;

import io.idempotent.runtime.PayloadConflictException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.ToolReadiness;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.smallrye.health.SmallRyeHealthReporter;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.util.Arrays;

/**
 * Runs as quarkus-run.jar. "first" (with -javaagent) calls the bean's tool through its client proxy
 * twice and once with another amount: one refund, or a non-zero exit status; "readiness" calls
 * nothing. (The replay in another JVM is proven by the getting-started and spring-boot-agent
 * projects; this one proves the agent's wrapping through Quarkus's loader.) Each mode then asks
 * Quarkus's health reporter for readiness: the second argument is the expected status, the further
 * ones entries of the check's data (see {@link Readiness}).
 */
@QuarkusMain
public class Main implements QuarkusApplication {

    @Inject
    RefundService refunds;

    @Inject
    SmallRyeHealthReporter health;

    @Override
    public int run(String... args) throws Exception {
        if (!args[0].equals("readiness")) {
            int calls = calls(args[0]);
            if (calls != 0) {
                return calls;
            }
        }
        String differs = Readiness.differs(health, args[1], Arrays.asList(args).subList(2, args.length));
        return differs == null ? 0 : fail(differs);
    }

    private int calls(String mode) throws Exception {
        try (Step step = Step.begin("quarkus-agent-approve-9")) {
            String result = refunds.issueRefund("invoice_9", 900);
            if (!refunds.issueRefund("invoice_9", 900).equals(result)) {
                return fail("the retry was not replayed");
            }
            try {
                refunds.issueRefund("invoice_9", 1900);
                return fail("a changed payload under the same key ran");
            } catch (PayloadConflictException expected) {
                System.out.println("quarkus: changed payload refused");
            }
        }
        long made = Files.readAllLines(RefundService.PROVIDER).size();
        if (made != 1) {
            return fail("refunds at the provider: " + made + ", expected 1");
        }
        // The runtime's view, read through Quarkus's loader: the agent started and wrapped the listed tool.
        ToolReadiness readiness = ToolReadiness.current();
        if (!readiness.ready() || !readiness.agentStarted() || readiness.listed().isEmpty()
                || !readiness.wrapped().equals(readiness.listed())) {
            return fail("not ready: " + readiness.describe());
        }
        System.out.println("quarkus: " + readiness.describe());
        System.out.println("quarkus: " + mode + ": one refund at the provider through "
                + refunds.getClass().getSimpleName() + ", with the agent");
        return 0;
    }

    private static int fail(String failure) {
        System.err.println("quarkus: FAILED: " + failure);
        return 1;
    }
}
