package readback;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/**
 * Results Jackson reads back, each holding a type it could not create where Jackson never looks,
 * or created its own way; compiled with a stand-in for jackson-module-kotlin on the class path.
 */
public class Accepted {

    /** No creator: refused wherever Jackson would have to create it. */
    public static final class Report {
        private final String id;

        public Report(String id) {
            this.id = id;
        }

        public String getId() {
            return id;
        }
    }

    /** What Jackson neither writes nor reads: no property. */
    public static final class Quiet {
        public static Report shared;
        public transient Report cached;
        @JsonIgnore
        public Report hidden;
        private Report secret;
        public String id;

        /** No name after "get": not a getter. */
        public String get() {
            return id;
        }

        /** No name after "is": not a getter. */
        public boolean is() {
            return true;
        }

        /** "is" reads a boolean only. */
        public Report isFlagged() {
            return secret;
        }

    }

    /** Its one method has no getter's name: no property (alone here, so nothing else takes its place). */
    public static final class Verbs {
        public Report report() {
            return new Report("verbs");
        }
    }

    public record Tagged(@JsonIgnore Report report, String id) {
    }

    @JsonDeserialize(using = OwnReader.Reader.class)
    public static final class OwnReader {
        private final String id;

        public OwnReader(String id) {
            this.id = id;
        }

        public String getId() {
            return id;
        }

        public static final class Reader extends JsonDeserializer<OwnReader> {
            @Override
            public OwnReader deserialize(JsonParser parser, DeserializationContext context) throws java.io.IOException {
                return new OwnReader(parser.getValueAsString());
            }
        }
    }

    @JsonDeserialize(as = ReadAs.Concrete.class)
    public static class ReadAs {
        private final String id;

        public ReadAs(String id) {
            this.id = id;
        }

        public String getId() {
            return id;
        }

        public static final class Concrete extends ReadAs {
            public Concrete() {
                super("concrete");
            }
        }
    }

    @JsonDeserialize(builder = Made.Maker.class)
    public static final class Made {
        private final String id;

        private Made(String id) {
            this.id = id;
        }

        public String getId() {
            return id;
        }

        @JsonPOJOBuilder(buildMethodName = "create", withPrefix = "")
        public static final class Maker {
            private String id;

            public Maker id(String id) {
                this.id = id;
                return this;
            }

            public Made create() {
                return new Made(id);
            }
        }
    }

    /** What kapt shows of `class Invoice(val id: String)`: jackson-module-kotlin calls its constructor. */
    @kotlin.Metadata(mv = {2, 2, 0}, k = 1)
    public static final class Invoice {
        private final String id;

        public Invoice(String id) {
            this.id = id;
        }

        public String getId() {
            return id;
        }
    }

    @IdempotentTool(key = "a:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public Quiet quiet(String id) { return null; }

    @IdempotentTool(key = "g:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public Verbs verbs(String id) { return null; }

    @IdempotentTool(key = "b:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public Tagged tagged(String id) { return null; }

    @IdempotentTool(key = "c:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public OwnReader ownReader(String id) { return null; }

    @IdempotentTool(key = "d:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public ReadAs readAs(String id) { return null; }

    @IdempotentTool(key = "e:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public Made made(String id) { return null; }

    @IdempotentTool(key = "f:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public Invoice invoice(String id) { return null; }
}
