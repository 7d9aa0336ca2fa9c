package good;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.util.List;

/** Tool names that make no Java constant by themselves or make the same one, and array results. */
public class ConstantNames {
    @IdempotentTool(key = "a:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "3ds_check")
    public String check(String id) { return id; }

    @IdempotentTool(key = "b:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "tools")
    public String tools(String id) { return id; }

    @IdempotentTool(key = "c:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "refund-v2")
    public String refundDash(String id) { return id; }

    @IdempotentTool(key = "d:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "refund.v2")
    public String refundDot(String id) { return id; }

    @IdempotentTool(key = "e:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE,
            name = "refund v2")
    public String refundSpace(String id) { return id; }

    @IdempotentTool(key = "f:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public String[] lines(String id) { return new String[] {id}; }

    @IdempotentTool(key = "g:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public List<String>[] pages(String id) { return null; }
}
