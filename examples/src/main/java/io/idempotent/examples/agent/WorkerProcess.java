package io.idempotent.examples.agent;

import io.idempotent.examples.providers.Faults;
import io.idempotent.examples.providers.Providers;
import io.idempotent.runtime.Step;
import java.nio.file.Path;

/**
 * A worker JVM (started with the agent) that dies in the middle of a tool call: the mail provider
 * commits the email, then the process halts before the result can be stored.
 */
public final class WorkerProcess {

    private WorkerProcess() {
    }

    /** Arguments: the session and the decision to work on. */
    public static void main(String[] args) {
        Path dir = Path.of(System.getProperty("build.demo.dir"));
        Providers providers = Providers.open(dir);
        providers.faults().next("mail", Faults.Fault.HALT_WORKER);
        PublishedMeters meters = PublishedMeters.attach(dir, "worker-" + ProcessHandle.current().pid());
        ToolRunner runner = new ToolRunner(providers, meters::publish);
        try (Step ignored = new Workflow(args[0]).step(args[1])) {
            Object result = runner.callOnce(new ScriptedModel().respond(args[1]).get(0));
            System.out.println("worker: unexpectedly survived with " + result);
        }
        System.exit(0);
    }
}
