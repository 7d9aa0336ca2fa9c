package io.idempotent.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.Operations;
import io.idempotent.runtime.OutboxCounts;
import io.idempotent.runtime.OutboxEntry;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code outbox}: the messages tool bodies sent that are not delivered yet, the oldest first, with
 * what the relay last knew of each (never the message itself), and the counts by state.
 */
@Command(name = "outbox", description = "The outbox's undelivered messages (pending, being sent, or awaiting"
        + " reconciliation), the oldest first, with the relay's last known state of each.")
final class OutboxCommand extends StoreCommand {

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
            description = "At most N, 1 to 1000 (default ${DEFAULT-VALUE}).")
    int limit;

    @Override
    void checkOptions() {
        super.checkOptions();
        if (limit < 1 || limit > AttemptPage.MAX_LIMIT) {
            throw new UsageException("--limit must be 1 to " + AttemptPage.MAX_LIMIT + ", was " + limit);
        }
    }

    @Override
    int run(IdempotentRuntime runtime, Operations operations, PrintWriter out) {
        OutboxCounts counts = runtime.outbox().counts(store.name());
        List<OutboxEntry> rows = runtime.outbox().undelivered(store.name(), limit);
        if (output.json) {
            ObjectNode root = Json.object();
            root.put("pending", counts.pending());
            root.put("delivered", counts.delivered());
            root.put("needsReconciliation", counts.needsReconciliation());
            root.put("oldestUndeliveredSeconds", counts.oldestUndelivered().toSeconds());
            ArrayNode list = root.putArray("undelivered");
            for (OutboxEntry e : rows) {
                ObjectNode row = list.addObject();
                row.put("id", e.id());
                row.put("tool", e.tool());
                row.put("key", e.operationKey());
                row.put("sequence", e.sequence());
                row.put("destination", e.destination());
                row.put("status", e.status());
                row.put("attempts", e.attempts());
                row.put("createdAt", Json.time(e.createdAt()));
                row.put("nextAttemptAt", Json.time(e.nextAttemptAt()));
                row.put("lastState", e.lastState());
            }
            Json.print(out, root);
            return ExitCode.OK;
        }
        out.println(TerminalText.escape("Outbox of store " + store.name() + ": " + counts.pending() + " pending, "
                + counts.needsReconciliation() + " awaiting reconciliation, " + counts.delivered() + " delivered"
                + (rows.isEmpty() ? "" : "; the oldest undelivered waited " + counts.oldestUndelivered().toSeconds()
                        + " s")));
        if (rows.isEmpty()) {
            return ExitCode.OK;
        }
        Table table = new Table("id", "tool", "key", "seq", "destination", "status", "attempts", "created at",
                "waited", "last state");
        Instant now = Instant.now();
        for (OutboxEntry e : rows) {
            table.row(e.id(), e.tool(), e.operationKey(), e.sequence(), e.destination(), e.status(), e.attempts(),
                    e.createdAt(), IncidentReview.age(e.createdAt(), now), e.lastState());
        }
        table.print(out);
        return ExitCode.OK;
    }
}
