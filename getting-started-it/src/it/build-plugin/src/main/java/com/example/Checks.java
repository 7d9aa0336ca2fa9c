package com.example;

/** What each run checks, with no class of the library (NoRuntimeMain runs without the runtime). */
final class Checks {

    private Checks() {
    }

    static void expectRefunds(String invoice, long expected) throws Exception {
        long refunds = RefundTools.refunds(invoice);
        check(refunds == expected, "refunds at the provider for " + invoice + ": " + refunds + ", expected " + expected);
    }

    static void check(boolean ok, String failure) {
        if (!ok) {
            System.err.println("build-plugin: FAILED: " + failure);
            System.exit(1);
        }
    }
}
