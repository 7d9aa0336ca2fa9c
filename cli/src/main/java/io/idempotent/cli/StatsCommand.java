package io.idempotent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationCount;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.Operations;
import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Command;

/** {@code stats}: how many operations each tool has in each status. */
@Command(name = "stats", description = "How many operations each tool has in each status.")
final class StatsCommand extends StoreCommand {

    @Override
    int run(IdempotentRuntime runtime, Operations operations, PrintWriter out) {
        Map<String, Map<OperationStatus, Long>> byTool = new TreeMap<>();
        for (OperationCount count : operations.countByToolAndStatus(store.name())) {
            byTool.computeIfAbsent(count.tool(), t -> new EnumMap<>(OperationStatus.class))
                    .put(count.status(), count.count());
        }
        if (output.json) {
            ObjectNode root = Json.object();
            byTool.forEach((tool, counts) -> {
                ObjectNode node = root.putObject(tool);
                for (OperationStatus status : OperationStatus.values()) {
                    node.put(status.column(), counts.getOrDefault(status, 0L));
                }
            });
            Json.print(out, root);
            return ExitCode.OK;
        }
        String[] header = new String[OperationStatus.values().length + 2];
        header[0] = "tool";
        for (OperationStatus status : OperationStatus.values()) {
            header[status.ordinal() + 1] = status.column();
        }
        header[header.length - 1] = "total";
        Table table = new Table(header);
        byTool.forEach((tool, counts) -> {
            Object[] cells = new Object[header.length];
            cells[0] = tool;
            long total = 0;
            for (OperationStatus status : OperationStatus.values()) {
                long n = counts.getOrDefault(status, 0L);
                cells[status.ordinal() + 1] = n;
                total += n;
            }
            cells[cells.length - 1] = total;
            table.row(cells);
        });
        if (table.isEmpty()) {
            out.println("The store has no operations.");
        } else {
            table.print(out);
        }
        return ExitCode.OK;
    }
}
