package io.idempotent.examples.agent;

import io.idempotent.examples.providers.Faults;
import io.idempotent.examples.providers.Providers;
import io.idempotent.runtime.IdempotencyException;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationInProgressException;
import io.idempotent.runtime.PendingApproval;
import io.idempotent.runtime.Step;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * An agent session whose tools survive lost replies, timeouts, a dying worker, a model that
 * changes its mind and an operator who replays the whole run. Run it with the agent attached
 * (see the README); without it the tools would run unprotected, and this demo refuses to start.
 */
public final class AgentDemo {

    /**
     * The demo's store password, the same in every JVM of the demo (workers get it as a system
     * property; agent arguments never carry passwords). A throwaway value for a throwaway store in
     * target/: without one, the embedded store would generate its own secret.
     */
    static final String STORE_PASSWORD = "demo-only";


    private static final String SESSION = "session-1";
    private static final List<String> DECISIONS = List.of("approval_17", "approval_18", "ticket_1042", "signup_7",
            "release_42", "release_42_recheck");

    private final Path dir;
    private final Providers providers;
    private ToolRunner runner;
    private final ScriptedModel model = new ScriptedModel();
    private final Workflow workflow = new Workflow(SESSION);
    private final String storeUrl;
    private final ToolRunner.Narrator out = line -> System.out.println(line);

    private AgentDemo(Path dir) {
        this.dir = dir;
        this.providers = Providers.open(dir);
        this.storeUrl = "jdbc:h2:file:" + dir.resolve("store").resolve("operations").toAbsolutePath()
                + ";AUTO_SERVER=TRUE";
    }

    /** Runs the session, replays it, and prints the table and one incident review. */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(System.getProperty("build.demo.dir", "target/demo")).toAbsolutePath();
        deleteRecursively(dir);
        Files.createDirectories(dir);
        new AgentDemo(dir).run();
    }

    private void run() throws Exception {
        requireAgent();
        System.setProperty("idempotent.store.url", storeUrl);
        System.setProperty("idempotent.store.password", STORE_PASSWORD);
        try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", storeUrl, "sa", STORE_PASSWORD)
                .build()) {
            IdempotentRuntime.setGlobal(runtime);
            PublishedMeters meters = PublishedMeters.attach(dir, "agent");
            runner = new ToolRunner(providers, meters::publish);
            out.say("store: " + storeUrl + " (the demo's own, in place of the agent's default, so every run starts clean)");
            out.say("== Run 1: the agent session, with the failures that matter injected");
            refundWithLostReply();
            refundWithTimeoutAndChangedArgument();
            largeRefundApprovedByAPerson(runtime);
            welcomeEmailWithDyingWorker();
            convergentDeployment();

            out.say("");
            out.say("== Run 2: an operator replays the whole run (same workflow, same step keys)");
            for (String decision : DECISIONS) {
                try (Step ignored = workflow.step(decision)) {
                    for (ToolRequest request : model.respond(decision)) {
                        ToolRequest routed = workflow.route(request);
                        show(decision, routed, runner.call(routed, out));
                    }
                }
            }

            out.say("");
            meters.publish();
            RunReport report = new RunReport(storeUrl, STORE_PASSWORD, providers.database(), PublishedMeters.sum(dir));
            report.printTable(out);
            out.say("");
            report.printIncidentReview(runtime.operations().find("send_welcome_email", "welcome:user_7:" + SESSION + ":signup_7")
                    .orElseThrow(), out);
            report.recordOutcomes("approval", runtime.operations().find("issue_large_refund",
                    "refund:invoice_977:" + SESSION + ":ticket_1042").orElseThrow());
            report.writeSummary(dir.resolve("summary.properties"));
        }
    }

    private void refundWithLostReply() {
        out.say("-- approval_17: the payment provider commits the refund, then its reply is lost");
        try (Step ignored = workflow.step("approval_17")) {
            List<ToolRequest> calls = model.respond("approval_17");
            providers.faults().next("psp", Faults.Fault.LOSE_REPLY);
            show("approval_17", calls.get(0), runner.call(calls.get(0), out));
            out.say("  model: I did not see that answer; calling again");
            show("approval_17", calls.get(1), runner.call(calls.get(1), out));
        }
    }

    private void refundWithTimeoutAndChangedArgument() throws Exception {
        out.say("-- approval_18: the provider is slow, the agent runtime times out, the model repeats the call");
        try (Step ignored = workflow.step("approval_18")) {
            List<ToolRequest> calls = model.respond("approval_18");
            CountDownLatch providerMayAnswer = new CountDownLatch(1);
            providers.faults().slowDownNextRequest(providerMayAnswer);
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<Object> first = pool.submit(Step.wrap(() -> runner.callOnce(calls.get(0))));
                try {
                    first.get(300, TimeUnit.MILLISECONDS);
                    throw new IllegalStateException("the slow provider answered before the timeout");
                } catch (TimeoutException e) {
                    out.say("  runtime: no answer after 300 ms; the model repeats the call");
                }
                try {
                    runner.callOnce(calls.get(0));
                    throw new IllegalStateException("the repeat ran while the first call was in progress");
                } catch (OperationInProgressException e) {
                    out.say("  repeat answered: OperationInProgressException (retryable: wait, do not start"
                            + " another worker)");
                }
                providerMayAnswer.countDown();
                show("approval_18", calls.get(0), first.get(30, TimeUnit.SECONDS));
            } finally {
                pool.shutdownNow();
            }
            show("approval_18", calls.get(0), runner.call(calls.get(0), out));
            out.say("  model: let me retry approval_18 with 5000 instead");
            show("approval_18", calls.get(1), runner.call(calls.get(1), out));
        }
    }

    private void largeRefundApprovedByAPerson(IdempotentRuntime runtime) throws Exception {
        out.say("-- ticket_1042: a refund above the desk's limit; the workflow (not the model) sends it to the tool"
                + " that needs a person's approval");
        ToolRequest routed;
        try (Step ignored = workflow.step("ticket_1042")) {
            List<ToolRequest> calls = model.respond("ticket_1042");
            routed = workflow.route(calls.get(0));
            out.say("  workflow: " + calls.get(0).arguments().get(1) + " cents is above the limit of "
                    + RefundDesk.APPROVAL_LIMIT_CENTS + ": " + routed.tool());
            show("ticket_1042", routed, runner.call(routed, out));
            out.say("  model: no refund yet; calling again with the same arguments");
            show("ticket_1042", workflow.route(calls.get(1)), runner.call(workflow.route(calls.get(1)), out));
        }
        PendingApproval request = runtime.approvals().pending("default", routed.tool(), 0, 1).get(0);
        out.say("  operator: idem approvals --tool " + routed.tool());
        idem("approvals", "--tool", routed.tool());
        out.say("  operator: idem approve " + routed.tool() + " " + request.key() + " --operator alice --reason"
                + " \"invoice checked\" --payload-hash <the hash listed>");
        idem("approve", routed.tool(), request.key(), "--operator", "alice", "--reason", "invoice checked",
                "--payload-hash", request.payloadHash());
        try (Step ignored = workflow.step("ticket_1042")) {
            out.say("  model: calling again after the approval");
            show("ticket_1042", routed, runner.call(routed, out));
            out.say("  model: and once more");
            show("ticket_1042", routed, runner.call(routed, out));
        }
    }

    /**
     * Runs the operator's command line (the built idem jar) on the demo's store, as an operator
     * would from a shell, and prints what it printed; fails the demo if it fails.
     */
    private void idem(String... args) throws Exception {
        String cliJar = System.getProperty("build.demo.cliJar");
        if (cliJar == null || !Files.isRegularFile(Path.of(cliJar))) {
            throw new IllegalStateException("set -Dbuild.demo.cliJar to the built idem jar (cli/target/"
                    + "idempotent-cli-<version>.jar); the README's demo command does");
        }
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
                "java").toString(), "-jar", cliJar));
        command.addAll(List.of(args));
        command.addAll(List.of("--store-url", storeUrl, "--store-user", "sa"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // As an operator's shell would pass it: never on the command line.
        builder.environment().put("IDEMPOTENT_STORE_PASSWORD", STORE_PASSWORD);
        Process idem = builder.start();
        String printed = new String(idem.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!idem.waitFor(60, TimeUnit.SECONDS)) {
            idem.destroyForcibly();
            throw new IllegalStateException("idem " + args[0] + " did not finish");
        }
        printed.lines().forEach(line -> out.say("    | " + line));
        if (idem.exitValue() != 0) {
            throw new IllegalStateException("idem " + args[0] + " exited with " + idem.exitValue());
        }
    }

    private void welcomeEmailWithDyingWorker() throws Exception {
        out.say("-- signup_7: a worker JVM sends the welcome email and dies before it can record it");
        Process worker = new ProcessBuilder(javaCommand(WorkerProcess.class.getName(), SESSION, "signup_7"))
                .redirectErrorStream(true).inheritIO().start();
        if (!worker.waitFor(60, TimeUnit.SECONDS)) {
            worker.destroyForcibly();
            throw new IllegalStateException("the worker did not die in time");
        }
        out.say("  worker exited with " + worker.exitValue() + "; the agent runtime hands the call to this worker");
        try (Step ignored = workflow.step("signup_7")) {
            ToolRequest call = model.respond("signup_7").get(0);
            show("signup_7", call, runner.call(call, out));
        }
    }

    private void convergentDeployment() {
        out.say("-- release_42: set checkout's target to v42; the reply is lost");
        try (Step ignored = workflow.step("release_42")) {
            ToolRequest call = model.respond("release_42").get(0);
            providers.faults().next("deploy", Faults.Fault.LOSE_REPLY);
            show("release_42", call, runner.call(call, out));
        }
        out.say("-- release_42_recheck: a later decision sets v42 again; the effect converges");
        try (Step ignored = workflow.step("release_42_recheck")) {
            ToolRequest call = model.respond("release_42_recheck").get(0);
            show("release_42_recheck", call, runner.call(call, out));
        }
    }

    private void show(String decision, ToolRequest request, Object outcome) {
        String answer = outcome instanceof IdempotencyException e
                ? e.getClass().getSimpleName() + " (retryable " + e.retryable() + "): " + e.getMessage()
                : outcome instanceof Throwable t ? t.getClass().getSimpleName() + ": " + t.getMessage()
                : String.valueOf(outcome);
        out.say("  " + decision + " " + request + " -> " + answer);
    }

    private List<String> javaCommand(String mainClass, String... args) {
        String agentJar = System.getProperty("build.demo.agentJar");
        if (agentJar == null) {
            throw new IllegalStateException("set -Dbuild.demo.agentJar to the agent jar");
        }
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-javaagent:" + agentJar,
                "-Didempotent.store.url=" + storeUrl,
                "-Didempotent.store.password=" + STORE_PASSWORD,
                "-Dbuild.demo.dir=" + dir,
                "-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(args));
        return command;
    }

    /** Without the agent, an annotated method would run its body unprotected: refuse to start. */
    private static void requireAgent() {
        boolean agent = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(arg -> arg.startsWith("-javaagent:") && arg.contains("idempotent-javaagent"));
        if (!agent) {
            throw new IllegalStateException("start the demo with -javaagent:javaagent/target/"
                    + "idempotent-javaagent-<version>.jar (see the README's quick start)");
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
