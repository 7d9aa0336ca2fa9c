package com.example;

import io.idempotent.runtime.Step;
import java.nio.file.Files;
import java.util.List;

/**
 * Runs with the agent (exec:exec, twice, so in two JVMs): each run calls the tool twice under one
 * step, and the provider must have made one refund in all. Exits non-zero otherwise.
 */
public class Main {

    public static void main(String[] args) throws Exception {
        // The README's dependencies bring a PostgreSQL driver for a production store.
        Class.forName("org.postgresql.Driver");
        RefundTools tools = new RefundTools();
        String first;
        String again;
        try (Step step = Step.begin("getting-started:approve-refund-842")) {
            first = tools.issueRefund("invoice_842", 4200);
            again = tools.issueRefund("invoice_842", 4200); // a retry: replayed, not re-sent
        }
        List<String> refunds = Files.readAllLines(RefundTools.PROVIDER);
        if (!first.equals(again) || refunds.size() != 1) {
            System.err.println("getting-started: FAILED: results \"" + first + "\" and \"" + again + "\", refunds at"
                    + " the provider " + refunds);
            System.exit(1);
        }
        System.out.println("getting-started: one refund at the provider (" + refunds.get(0) + "), replayed: "
                + again);
    }
}
