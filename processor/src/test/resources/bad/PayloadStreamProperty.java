package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.util.stream.Stream;

public class PayloadStreamProperty {
    public static class Batch {
        private final String id;
        private final Stream<String> lines;

        public Batch(String id, Stream<String> lines) {
            this.id = id;
            this.lines = lines;
        }

        public String getId() { return id; }

        public Stream<String> getLines() { return lines; }
    }

    @IdempotentTool(key = "import:{batch.id}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public long importBatch(Batch batch) { return 0; }
}
