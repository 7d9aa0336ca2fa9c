package io.idempotent.examples.agent;

import io.idempotent.examples.providers.Faults;
import io.idempotent.examples.providers.Providers;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.Step;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The smallest agent session, in one JVM that starts no other: one approved refund whose first
 * reply is lost, so the agent runtime retries it. Run it twice on the same directory and the second
 * run is an operator replaying the session. Unlike {@link AgentDemo} it runs from any packaging,
 * a Spring Boot fat jar included, which is what the examples' tests use it for.
 *
 * <p>Prints {@code result: ...}, then {@code psp.invocations=N}, {@code psp.effects=N} and
 * {@code attempts=N} (rows in the attempt log of the refund's key) for a test to read.
 */
public final class RefundSession {

    private static final String DECISION = "approval_17";

    private RefundSession() {
    }

    /** Runs the session on the providers and store under {@code -Dbuild.demo.dir}. */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(System.getProperty("build.demo.dir", "target/refund-session")).toAbsolutePath();
        Files.createDirectories(dir);
        String storeUrl = "jdbc:h2:file:" + dir.resolve("store").resolve("operations") + ";AUTO_SERVER=TRUE";
        Providers providers = Providers.open(dir);
        ToolRunner runner = new ToolRunner(providers);
        ToolRunner.Narrator out = System.out::println;
        try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", storeUrl, "sa", "").build()) {
            IdempotentRuntime.setGlobal(runtime);
            String key;
            try (Step step = new Workflow("session-boot").step(DECISION)) {
                ToolRequest request = new ScriptedModel().respond(DECISION).get(0);
                key = "refund:" + request.arguments().get(0) + ":" + step.key();
                if (runtime.operations().find("issue_refund", key).isEmpty()) {
                    providers.faults().next("psp", Faults.Fault.LOSE_REPLY);
                }
                out.say("result: " + runner.call(request, out));
            }
            OperationRecord record = runtime.operations().find("issue_refund", key).orElseThrow(
                    () -> new IllegalStateException("no operation " + key + ": was the agent attached?"));
            out.say("status=" + record.status());
            out.say("attempts=" + record.attemptCount());
        }
        out.say("psp.invocations=" + providers.database().count("psp", "invocation"));
        out.say("psp.effects=" + providers.database().count("psp", "effect"));
    }
}
