package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.util.Iterator;

public class PayloadIteratorComponent {
    public record Item(String sku, int quantity) {
    }

    public record Order(String id, Iterator<Item> items) {
    }

    @IdempotentTool(key = "ship:{order.id}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String ship(Order order) { return order.id(); }
}
