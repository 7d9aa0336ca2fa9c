package io.idempotent.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.Operations;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pending}: the reconciliation queue, the longest waiting first. */
@Command(name = "pending", description = "The reconciliation queue: operations whose effect may or may not have"
        + " happened, the longest waiting first.")
final class PendingCommand extends StoreCommand {

    @Option(names = "--tool", paramLabel = "TOOL", description = "Only this tool's operations.")
    String tool;

    @Option(names = "--older-than", paramLabel = "DURATION", defaultValue = "PT0S",
            description = "Only operations waiting at least this long (ISO-8601, e.g. PT1H).")
    Duration olderThan;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100", description = "At most N (default ${DEFAULT-VALUE}).")
    int limit;

    @Override
    void checkOptions() {
        super.checkOptions();
        if (limit < 1) {
            throw new UsageException("--limit must be at least 1, was " + limit);
        }
        if (olderThan.isNegative()) {
            throw new UsageException("--older-than must not be negative, was " + olderThan);
        }
    }

    @Override
    int run(IdempotentRuntime runtime, Operations operations, PrintWriter out) {
        List<OperationRecord> queue = operations.awaitingReconciliation(store.name(), tool, olderThan, limit);
        Instant now = Instant.now();
        if (output.json) {
            ArrayNode list = Json.array();
            for (OperationRecord op : queue) {
                ObjectNode row = list.addObject();
                row.put("tool", op.tool());
                row.put("key", op.key());
                row.put("waitingSince", Json.time(op.updatedAt()));
                row.put("attempts", op.attempts());
                row.put("downstreamId", op.downstreamId());
            }
            Json.print(out, list);
            return ExitCode.OK;
        }
        if (queue.isEmpty()) {
            out.println(TerminalText.escape("No operation awaits reconciliation" + (tool == null ? "" : " for tool "
                    + tool) + "."));
            return ExitCode.OK;
        }
        Table table = new Table("tool", "key", "waiting since", "waited", "attempts", "downstream id");
        for (OperationRecord op : queue) {
            table.row(op.tool(), op.key(), op.updatedAt(), IncidentReview.age(op.updatedAt(), now), op.attempts(),
                    op.downstreamId());
        }
        table.print(out);
        out.println(queue.size() + " awaiting reconciliation. Review one with: show TOOL KEY");
        return ExitCode.OK;
    }
}
