package good;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Results and payloads the gate must keep accepting: trees, type information, creators, enums,
 * containers, Jackson's own JsonNode.
 */
public class ReadableShapes {
    /** A tree: it holds itself only through a List, which ends in empty lists. */
    public record Category(String name, List<Category> children, Optional<String> note) {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME)
    @JsonSubTypes({@JsonSubTypes.Type(value = Card.class, name = "card")})
    public interface PaymentMethod {
    }

    public record Card(String last4) implements PaymentMethod {
    }

    public enum Status { OK, LATE }

    public static final class Ticket {
        private final String id;

        @JsonCreator
        public Ticket(@JsonProperty("id") String id) {
            this.id = id;
        }

        public String getId() { return id; }
    }

    public static class Bean {
        private String id;

        public String getId() { return id; }

        public void setId(String id) { this.id = id; }
    }

    public record Receipt(String id, PaymentMethod method, Status status, Ticket ticket, Bean bean,
            Map<String, List<Category>> byRegion, Category[] extra, JsonNode details) {
    }

    @IdempotentTool(key = "pay:{orderId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public Receipt pay(String orderId, Category category, Iterable<String> tags, Comparable<String> label,
            JsonNode options) {
        return null;
    }

    @IdempotentTool(key = "tree:{rootId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public Optional<List<Category>> tree(String rootId) {
        return Optional.empty();
    }
}
