package io.idempotent.test;

import io.idempotent.runtime.OperationStatus;
import java.util.List;

/**
 * What one case observed and whether it kept the contract.
 *
 * @param tool the tool's name
 * @param test the failure test
 * @param fault the injected fault
 * @param database the store's database
 * @param requests requests that reached the downstream
 * @param effects business effects at the downstream
 * @param executions how often the tool's body ran
 * @param replays calls answered with a result without running the body
 * @param finalStatus the operation's status at the end, or null when there is no record
 * @param expected the expected outcome in words
 * @param failures the broken guarantees; empty when the case passed
 */
record CaseResult(String tool, FailureTest test, Fault fault, KitDatabase database, long requests, long effects,
        int executions, int replays, OperationStatus finalStatus, String expected, List<String> failures) {

    boolean passed() {
        return failures.isEmpty();
    }

    String failureMessage() {
        return "contract of tool " + tool + ", test \"" + test.label() + "\", fault \"" + fault.label() + "\" on "
                + database + ":\n  - " + String.join("\n  - ", failures) + "\n  observed: requests " + requests
                + ", effects " + effects + ", body runs " + executions + ", replays " + replays + ", final status "
                + status() + "; expected: " + expected;
    }

    String status() {
        return finalStatus == null ? "(no record)" : finalStatus.column();
    }
}
