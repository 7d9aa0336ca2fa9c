package io.idempotent.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.Operations;
import io.idempotent.runtime.PendingApproval;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code approvals}: the approval queue, the oldest request first, a page at a time. It shows each
 * payload with its whole hash, as {@code show} shows stored payloads: the operator decides on
 * exactly that payload, and {@code approve} and {@code deny} name that hash.
 */
@Command(name = "approvals", description = "The approval queue: operations of tools that need a person's approval,"
        + " with the payload to decide on, the oldest request first. Decide with approve or deny.")
final class ApprovalsCommand extends StoreCommand {

    @Option(names = "--tool", paramLabel = "TOOL", description = "Only this tool's operations.")
    String tool;

    @Option(names = "--offset", paramLabel = "N", defaultValue = "0",
            description = "Skip the first N (default ${DEFAULT-VALUE}).")
    int offset;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
            description = "At most N, 1 to 1000 (default ${DEFAULT-VALUE}).")
    int limit;

    @Override
    void checkOptions() {
        super.checkOptions();
        if (offset < 0) {
            throw new UsageException("--offset must not be negative, was " + offset);
        }
        if (limit < 1 || limit > AttemptPage.MAX_LIMIT) {
            throw new UsageException("--limit must be 1 to " + AttemptPage.MAX_LIMIT + ", was " + limit);
        }
    }

    @Override
    int run(IdempotentRuntime runtime, Operations operations, PrintWriter out) {
        List<PendingApproval> queue = runtime.approvals().pending(store.name(), tool, offset, limit);
        long total = total(runtime);
        long next = offset + (long) queue.size();
        boolean more = next < total;
        if (output.json) {
            ObjectNode root = Json.object();
            root.put("total", total);
            root.put("offset", offset);
            if (more) {
                root.put("nextOffset", next);
            } else {
                root.putNull("nextOffset");
            }
            ArrayNode list = root.putArray("pending");
            for (PendingApproval p : queue) {
                ObjectNode row = list.addObject();
                row.put("tool", p.tool());
                row.put("key", p.key());
                row.put("payloadHash", p.payloadHash());
                row.set("payload", Json.stored(p.payloadJson()));
                row.put("step", p.step());
                row.put("requestedBy", p.requestedBy());
                row.put("requestedAt", Json.time(p.requestedAt()));
                row.put("expiredGrant", p.expiredGrant());
                row.put("decidedBy", p.decidedBy());
            }
            Json.print(out, root);
            return ExitCode.OK;
        }
        if (queue.isEmpty()) {
            out.println(TerminalText.escape("No operation awaits approval" + (tool == null ? "" : " for tool " + tool)
                    + (offset == 0 ? "" : " from row " + (offset + 1L) + " (the queue has " + total + ")") + "."));
            return ExitCode.OK;
        }
        out.println("Awaiting approval " + (offset + 1L) + " to " + next + " of " + total + ", the oldest request"
                + " first");
        Table table = new Table("tool", "key", "requested at", "waited", "step", "requested by", "note",
                "payload hash", "payload");
        Instant now = Instant.now();
        for (PendingApproval p : queue) {
            table.row(p.tool(), p.key(), p.requestedAt(), IncidentReview.age(p.requestedAt(), now), p.step(),
                    p.requestedBy(), ApprovalDecisions.note(p), p.payloadHash(), p.payloadJson());
        }
        table.print(out);
        if (more) {
            out.println(TerminalText.escape((total - next) + " more: approvals" + (tool == null ? "" : " --tool "
                    + tool) + " --offset " + next + " --limit " + limit));
        }
        out.println("Decide with: approve|deny TOOL KEY --payload-hash HASH --operator NAME [--reason TEXT]");
        return ExitCode.OK;
    }

    /** How many await approval under this command's filter. */
    private long total(IdempotentRuntime runtime) {
        var counts = runtime.approvals().countPending(store.name());
        return tool == null ? counts.values().stream().mapToLong(Long::longValue).sum()
                : counts.getOrDefault(tool, 0L);
    }

}
