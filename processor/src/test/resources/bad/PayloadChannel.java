package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.nio.channels.ReadableByteChannel;

public class PayloadChannel {
    @IdempotentTool(key = "upload:{name}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String upload(String name, ReadableByteChannel content) { return name; }
}
