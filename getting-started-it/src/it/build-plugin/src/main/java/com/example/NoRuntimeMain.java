package com.example;

/**
 * Run with idempotent-runtime left off the class path (and no agent): the woven tool must refuse
 * the call, and the provider must see no refund. Touches no runtime class itself.
 */
public class NoRuntimeMain {

    public static void main(String[] args) throws Exception {
        try {
            new RefundTools().issueRefund("invoice_no_runtime", 100);
            Checks.check(false, "the tool ran without the runtime");
        } catch (IllegalStateException refused) {
            Checks.check(refused.getMessage().contains("refused: idempotent-runtime is not on its class path"),
                    "unexpected refusal: " + refused);
            System.out.println("build-plugin: without the runtime: " + refused.getMessage());
        }
        Checks.expectRefunds("invoice_no_runtime", 0);
        System.out.println("build-plugin: no-runtime: no refund");
    }
}
