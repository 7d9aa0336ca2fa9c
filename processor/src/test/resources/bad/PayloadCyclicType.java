package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.util.List;

public class PayloadCyclicType {
    /** A tree: checking it must end, and still find the callback deep inside. */
    public record Node(String id, List<Node> children, Leaf leaf) {
    }

    public record Leaf(Node parent, Runnable onVisit) {
    }

    @IdempotentTool(key = "visit:{tree.id}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public int visit(Node tree) { return 0; }
}
