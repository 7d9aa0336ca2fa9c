package readback;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Results that cannot be read back, each found where it sits inside the type. */
public class Refused {

    /** No creator: no no-argument constructor, no @JsonCreator. */
    public static final class Report {
        private final String id;

        public Report(String id) {
            this.id = id;
        }

        public String getId() {
            return id;
        }
    }

    /** Not static: needs an instance of Refused to be created. */
    public class Inner {
        public String getId() {
            return "inner";
        }
    }

    public record Page<T>(List<T> items, int total) {
    }

    /** Jackson writes a public field, so it must read it back too. */
    public static final class Holder {
        public Report report;

        /** Not a getter (no "is" or "get" first): it hides no property of the same letters. */
        public boolean ofReport() {
            return report != null;
        }
    }

    /** The builder itself has no creator. */
    @JsonDeserialize(builder = Built.Builder.class)
    public static final class Built {
        private final String id;

        private Built(String id) {
            this.id = id;
        }

        public String getId() {
            return id;
        }

        public static final class Builder {
            private final String id;

            public Builder(String id) {
                this.id = id;
            }

            public Built build() {
                return new Built(id);
            }
        }
    }

    @IdempotentTool(key = "a:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public Report[] array(String id) { return null; }

    @IdempotentTool(key = "b:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public List<? extends Report> wildcard(String id) { return null; }

    @IdempotentTool(key = "c:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public Map<String, Report> mapValue(String id) { return null; }

    @IdempotentTool(key = "d:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public Optional<Report> optional(String id) { return null; }

    @IdempotentTool(key = "e:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public Inner inner(String id) { return null; }

    @IdempotentTool(key = "f:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public Page<Report> page(String id) { return null; }

    @IdempotentTool(key = "g:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public Holder holder(String id) { return null; }

    @IdempotentTool(key = "h:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public Built built(String id) { return null; }
}
