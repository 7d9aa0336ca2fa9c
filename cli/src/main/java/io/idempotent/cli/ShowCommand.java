package io.idempotent.cli;

import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.Operations;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code show TOOL KEY}: the incident review of one operation. */
@Command(name = "show", description = "The incident review of one operation: decision, payload, result,"
        + " downstream id, the attempts (a page at a time), the settlements and, for a tool that needs approval,"
        + " the request and its decisions.")
final class ShowCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "TOOL", description = "The tool's name (as in tools.json).")
    String tool;

    @Parameters(index = "1", paramLabel = "KEY", description = "The operation key.")
    String key;

    @Option(names = "--attempts-offset", paramLabel = "N", defaultValue = "0",
            description = "Show the attempt log from row N+1 (default ${DEFAULT-VALUE}: the first rows).")
    int attemptsOffset;

    @Option(names = "--attempts-limit", paramLabel = "M", defaultValue = "100",
            description = "Show at most M rows of the attempt log, 1 to 1000 (default ${DEFAULT-VALUE}).")
    int attemptsLimit;

    @Override
    void checkOptions() {
        super.checkOptions();
        if (attemptsOffset < 0) {
            throw new UsageException("--attempts-offset must not be negative, was " + attemptsOffset);
        }
        if (attemptsLimit < 1 || attemptsLimit > AttemptPage.MAX_LIMIT) {
            throw new UsageException("--attempts-limit must be 1 to " + AttemptPage.MAX_LIMIT + ", was "
                    + attemptsLimit);
        }
    }

    @Override
    int run(IdempotentRuntime runtime, Operations operations, PrintWriter out) {
        OperationRecord op = operations.find(store.name(), tool, key)
                .orElseThrow(() -> new RefusedException("no operation " + key + " of tool " + tool + " in store "
                        + store.name() + " (" + store.describe() + ")"));
        IncidentReview.Review review = IncidentReview.read(operations, store.name(), op, attemptsOffset,
                attemptsLimit);
        if (output.json) {
            Json.print(out, Json.operation(review));
        } else {
            IncidentReview.print(out, store.name(), review);
        }
        return ExitCode.OK;
    }
}
