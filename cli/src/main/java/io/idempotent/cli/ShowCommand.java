package io.idempotent.cli;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.Operations;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code show TOOL KEY}: the incident review of one operation. */
@Command(name = "show", description = "The incident review of one operation: decision, payload, result,"
        + " downstream id, every attempt and the settlements.")
final class ShowCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "TOOL", description = "The tool's name (as in tools.json).")
    String tool;

    @Parameters(index = "1", paramLabel = "KEY", description = "The operation key.")
    String key;

    @Override
    int run(IdempotentRuntime runtime, Operations operations, PrintWriter out) {
        OperationRecord op = operations.find(store.name(), tool, key)
                .orElseThrow(() -> new RefusedException("no operation " + key + " of tool " + tool + " in store "
                        + store.name() + " (" + store.describe() + ")"));
        if (output.json) {
            Json.print(out, Json.operation(op));
        } else {
            IncidentReview.print(out, store.name(), op);
        }
        return ExitCode.OK;
    }
}
