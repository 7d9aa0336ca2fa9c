package io.idempotent.cli;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.Operations;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code purge}: deletes finished operations past their retention. */
@Command(name = "purge", description = "Deletes completed and failed_safe operations past their retention, with"
        + " their attempt logs. Operations in progress or awaiting reconciliation are never deleted.")
final class PurgeCommand extends StoreCommand {

    @Option(names = "--dry-run", description = "Only count what would be deleted.")
    boolean dryRun;

    @Override
    int run(IdempotentRuntime runtime, Operations operations, PrintWriter out) {
        int count = dryRun ? operations.countExpired(store.name()) : operations.purgeExpired(store.name());
        if (output.json) {
            Json.print(out, Json.object().put(dryRun ? "wouldDelete" : "deleted", count));
        } else {
            out.println((dryRun ? "Would delete " : "Deleted ") + count + " finished operation(s) past their"
                    + " retention; none in progress or awaiting reconciliation.");
        }
        return ExitCode.OK;
    }
}
