package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class ResultCyclic {
    public record Employee(String name, Employee manager) {
    }

    @IdempotentTool(key = "hire:{name}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public Employee hire(String name) { return new Employee(name, null); }
}
