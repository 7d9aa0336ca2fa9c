package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class ResultNoCreator {
    public static class Report {
        private final String id;

        public Report(String id) {
            this.id = id;
        }

        public String getId() { return id; }
    }

    @IdempotentTool(key = "report:{reportId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public Report export(String reportId) { return new Report(reportId); }
}
