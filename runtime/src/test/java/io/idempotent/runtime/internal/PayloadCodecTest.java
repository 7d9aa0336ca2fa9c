package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PayloadCodecTest {

    private final PayloadCodec codec = new PayloadCodec(JsonMapper.builder().findAndAddModules().build());

    @JsonPropertyOrder({"b", "a"})
    record BA(int a, String b) {
    }

    @JsonPropertyOrder({"a", "b"})
    record AB(int a, String b) {
    }

    private String hash(Map<String, ?> payload) {
        return codec.encode("t", "k", payload).sha256();
    }

    @Test
    void canonicalJsonSortsKeysAndHasNoWhitespace() {
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("z", 1);
        nested.put("a", List.of(true, "x y"));
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("second", nested);
        payload.put("first", null);
        assertThat(codec.encode("t", "k", payload).json())
                .isEqualTo("{\"first\":null,\"second\":{\"a\":[true,\"x y\"],\"z\":1}}");
    }

    @Test
    void fieldOrderNeverChangesTheHash() {
        assertThat(hash(Map.of("p", new BA(1, "x")))).isEqualTo(hash(Map.of("p", new AB(1, "x"))));
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("a", 1);
        one.put("b", 2);
        Map<String, Object> other = new LinkedHashMap<>();
        other.put("b", 2);
        other.put("a", 1);
        assertThat(hash(one)).isEqualTo(hash(other));
    }

    @Test
    void numbersHaveOneForm() {
        assertThat(hash(Map.of("n", 1))).isEqualTo(hash(Map.of("n", 1L)))
                .isEqualTo(hash(Map.of("n", new BigDecimal("1.00")))).isEqualTo(hash(Map.of("n", 1.0d)));
        assertThat(codec.encode("t", "k", Map.of("n", 0.1d)).json()).isEqualTo("{\"n\":0.1}");
        assertThat(codec.encode("t", "k", Map.of("n", new BigDecimal("12.50"))).json()).isEqualTo("{\"n\":12.5}");
        assertThat(codec.encode("t", "k", Map.of("n", 1e21)).json()).isEqualTo("{\"n\":1000000000000000000000}");
    }

    @Test
    void anyChangedValueChangesTheHash() {
        String base = hash(Map.of("p", new AB(1, "x")));
        assertThat(hash(Map.of("p", new AB(2, "x")))).isNotEqualTo(base);
        assertThat(hash(Map.of("p", new AB(1, "y")))).isNotEqualTo(base);
        assertThat(hash(Map.of("q", new AB(1, "x")))).isNotEqualTo(base);
        assertThat(hash(Map.of("n", "1"))).isNotEqualTo(hash(Map.of("n", 1)));
        assertThat(base).hasSize(64).matches("[0-9a-f]+");
    }
}
