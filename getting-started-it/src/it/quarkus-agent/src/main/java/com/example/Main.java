package com.example;

import io.idempotent.runtime.PayloadConflictException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.ToolReadiness;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs as quarkus-run.jar with -javaagent and calls the bean's tool through its client proxy:
 * "first" twice and once with another amount, "second" (another JVM) once more. One refund in all,
 * or a non-zero exit status.
 */
@QuarkusMain
public class Main implements QuarkusApplication {

    @Inject
    RefundService refunds;

    @Override
    public int run(String... args) throws Exception {
        String result;
        try (Step step = Step.begin("quarkus-agent-approve-9")) {
            result = refunds.issueRefund("invoice_9", 900);
            if (args[0].equals("first")) {
                if (!refunds.issueRefund("invoice_9", 900).equals(result)) {
                    return fail("the retry was not replayed");
                }
                try {
                    refunds.issueRefund("invoice_9", 1900);
                    return fail("a changed payload under the same key ran");
                } catch (PayloadConflictException expected) {
                    System.out.println("quarkus: changed payload refused");
                }
                Files.writeString(Path.of("target", "first-result.txt"), result);
            } else if (!result.equals(Files.readString(Path.of("target", "first-result.txt")))) {
                return fail("the second JVM did not replay the first one's result: " + result);
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
        System.out.println("quarkus: " + args[0] + ": one refund at the provider through "
                + refunds.getClass().getSimpleName() + ", with the agent");
        return 0;
    }

    private static int fail(String failure) {
        System.err.println("quarkus: FAILED: " + failure);
        return 1;
    }
}
