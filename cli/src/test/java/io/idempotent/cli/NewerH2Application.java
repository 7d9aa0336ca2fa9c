package io.idempotent.cli;

import io.idempotent.examples.providers.Providers;
import io.idempotent.examples.tools.RefundTools;
import io.idempotent.examples.tools.RefundTools_IdempotentTools;
import io.idempotent.examples.tools.WelcomeEmailTools;
import io.idempotent.examples.tools.WelcomeEmailTools_IdempotentTools;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The application of {@link MixedH2VersionsIT}, run in a JVM of its own whose class path has a
 * newer H2 than the command line's: {@code write} makes {@link ExampleRecords}; {@code hold} keeps
 * the store open (its file shared through H2's auto-server) from "ready" until a line on standard
 * input, then runs the email whose record the operator settled meanwhile and replays the refund;
 * {@code replay} replays the refund once more. Prints which H2 jar it ran on.
 */
public final class NewerH2Application {

    private NewerH2Application() {
    }

    public static void main(String[] args) throws Throwable {
        String url = args[1];
        Path providers = Path.of(args[2]);
        if (args[0].equals("write")) {
            ExampleRecords.write(url, "sa", "", providers);
            System.out.println("written");
            printH2Jar();
            return;
        }
        Providers p = Providers.open(providers);
        RefundTools refunds = new RefundTools(p.payments());
        try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", url, "sa", "").build()) {
            System.out.println("refund: " + replayRefund(runtime));
            if (args[0].equals("hold")) {
                System.out.println("ready");
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                WelcomeEmailTools emails = new WelcomeEmailTools(p.mail());
                ToolBinding email = binding(new WelcomeEmailTools_IdempotentTools(), ExampleRecords.EMAIL);
                try (Step step = Step.begin("signup-2")) {
                    Object sent = runtime.call(email, new Object[] {"u_2", "u2@example.com"},
                            () -> emails.sendWelcome("u_2", "u2@example.com"));
                    System.out.println("email: " + sent);
                }
                System.out.println("refund: " + replayRefund(runtime));
            }
        }
        System.out.println("done");
        printH2Jar();
    }

    /** Printed last: the runtime keeps H2's auto-server on loopback only where it uses H2 first. */
    private static void printH2Jar() {
        System.out.println("h2 jar: " + org.h2.Driver.class.getProtectionDomain().getCodeSource().getLocation());
    }

    private static Object replayRefund(IdempotentRuntime runtime) throws Throwable {
        ToolBinding refund = binding(new RefundTools_IdempotentTools(), ExampleRecords.REFUND);
        try (Step step = Step.begin("approval-1")) {
            return runtime.call(refund, new Object[] {"inv_1", 500L, "trace-1"}, () -> {
                throw new AssertionError("the body ran for a completed operation");
            });
        }
    }

    private static ToolBinding binding(ToolBindings bindings, String tool) {
        return bindings.tools().stream().filter(b -> b.policy().name().equals(tool)).findFirst().orElseThrow();
    }
}
