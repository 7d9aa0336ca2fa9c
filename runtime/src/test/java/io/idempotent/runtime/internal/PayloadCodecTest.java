package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.idempotent.runtime.PayloadNotSerializableException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
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

    record Tagged(String id, Set<String> tags) {
    }

    private String json(Object value) {
        return codec.encode("t", "k", Map.of("p", value)).json();
    }

    @Test
    void setsAreWrittenInTheOrderOfTheirElementsCanonicalForms() {
        Set<String> abc = new LinkedHashSet<>(List.of("b", "a", "c"));
        Set<String> cba = new LinkedHashSet<>(List.of("c", "b", "a"));
        assertThat(json(abc)).isEqualTo("{\"p\":[\"a\",\"b\",\"c\"]}");
        assertThat(json(cba)).isEqualTo(json(abc));
        assertThat(json(new Tagged("x", cba))).isEqualTo(json(new Tagged("x", abc)))
                .isEqualTo("{\"p\":{\"id\":\"x\",\"tags\":[\"a\",\"b\",\"c\"]}}");
        // Sorted by canonical JSON, not by the elements' own order: 10 before 9 as text.
        assertThat(json(new TreeSet<>(List.of(9, 10)))).isEqualTo("{\"p\":[10,9]}");
        Set<Tagged> records = new LinkedHashSet<>(List.of(new Tagged("b", Set.of()), new Tagged("a", cba)));
        assertThat(json(records)).isEqualTo("{\"p\":[{\"id\":\"a\",\"tags\":[\"a\",\"b\",\"c\"]},"
                + "{\"id\":\"b\",\"tags\":[]}]}");
        assertThat(json(Map.of("s", cba))).isEqualTo("{\"p\":{\"s\":[\"a\",\"b\",\"c\"]}}");
        // A list keeps its order: order is part of its value.
        assertThat(json(List.of("c", "a"))).isEqualTo("{\"p\":[\"c\",\"a\"]}");
    }

    @Test
    void doublesAndFloatsHaveTheirShortestRepresentationOnEveryJdk() {
        // JDK 17's Double.toString gives 1.9999999999999998E23, 9.999999999999999E22, 8.409999999999999E21,
        // 1.0E-323 for these; JDK 19+ and the canonical form give the shortest decimal that reads back.
        assertThat(json(2e23)).isEqualTo("{\"p\":200000000000000000000000}");
        assertThat(json(1.0E23)).isEqualTo("{\"p\":100000000000000000000000}");
        assertThat(json(8.41E21)).isEqualTo("{\"p\":8410000000000000000000}");
        assertThat(json(9.9E-324)).isEqualTo("{\"p\":0." + "0".repeat(323) + "99}");
        assertThat(json(Double.MIN_VALUE)).isEqualTo("{\"p\":0." + "0".repeat(323) + "49}");
        assertThat(json(2.82879384806159E17)).isEqualTo("{\"p\":282879384806159000}");
        assertThat(json(2.0E-3)).isEqualTo(json(0.002)).isEqualTo("{\"p\":0.002}");
        assertThat(json(8.589974E9f)).isEqualTo("{\"p\":8589974000}");
        assertThat(json(0.1f)).isEqualTo("{\"p\":0.1}");
    }

    @Test
    void notANumberAndInfinitiesDoNotCollideWithStrings() {
        assertThat(hash(Map.of("n", Double.NaN))).isNotEqualTo(hash(Map.of("n", "NaN")));
        assertThat(hash(Map.of("n", Double.POSITIVE_INFINITY))).isNotEqualTo(hash(Map.of("n", "Infinity")));
        assertThat(hash(Map.of("n", Float.NEGATIVE_INFINITY))).isNotEqualTo(hash(Map.of("n", "-Infinity")))
                .isEqualTo(hash(Map.of("n", Double.NEGATIVE_INFINITY)));
    }

    @Test
    void unpairedSurrogatesAreRefusedNamingTheParameterNotTheValue() {
        for (String bad : List.of("\uD800", "a\uDC00", "x\uD83D", "\uDE00\uD83D")) {
            assertThatThrownBy(() -> codec.encode("send_mail", "mail:1", Map.of("subject", bad)))
                    .isInstanceOf(PayloadNotSerializableException.class).hasMessageContaining("send_mail")
                    .hasMessageContaining("subject").hasMessageContaining("surrogate")
                    .hasMessageNotContaining(bad);
        }
        assertThatThrownBy(() -> codec.encode("t", "k", Map.of("headers", Map.of("\uD800", "v"))))
                .isInstanceOf(PayloadNotSerializableException.class).hasMessageContaining("headers");
        assertThat(hash(Map.of("s", "\uD83D\uDE00"))).isNotEqualTo(hash(Map.of("s", "?")));
        assertThat(json("\uD83D\uDE00")).isEqualTo("{\"p\":\"\uD83D\uDE00\"}");
    }

    @Test
    void numbersBeyondTheCanonicalBoundsAreRefusedNamingTheParameter() {
        for (BigDecimal huge : List.of(new BigDecimal("1E-400000000"), new BigDecimal("1E+400000000"),
                new BigDecimal("1E-1001"), new BigDecimal("1E+1001"),
                new BigDecimal(BigInteger.TEN.pow(1000).add(BigInteger.ONE)))) {
            assertThatThrownBy(() -> codec.encode("refund", "refund:1", Map.of("amount", huge)))
                    .isInstanceOf(PayloadNotSerializableException.class).hasMessageContaining("refund")
                    .hasMessageContaining("amount").hasMessageContaining("1000");
        }
        assertThatThrownBy(() -> codec.encode("t", "k", Map.of("n", BigInteger.TEN.pow(1000))))
                .isInstanceOf(PayloadNotSerializableException.class).hasMessageContaining("n");
        // At the bounds: still accepted.
        assertThat(json(new BigDecimal("1E-1000"))).isEqualTo("{\"p\":0." + "0".repeat(999) + "1}");
        assertThat(json(new BigDecimal("1E+1000"))).isEqualTo("{\"p\":1" + "0".repeat(1000) + "}");
        assertThat(json(Double.MAX_VALUE)).startsWith("{\"p\":17976931348623157");
    }

    @Test
    void stringsAreEscapedTheSameWhateverTheApplicationsMapperDoes() {
        PayloadCodec escaping = new PayloadCodec(JsonMapper.builder()
                .enable(com.fasterxml.jackson.core.json.JsonWriteFeature.ESCAPE_NON_ASCII).build());
        Map<String, Object> payload = Map.of("s", "\u00e9\"\\\n\u0001");
        assertThat(escaping.encode("t", "k", payload).json()).isEqualTo(codec.encode("t", "k", payload).json())
                .isEqualTo("{\"s\":\"\u00e9\\\"\\\\\\n\\u0001\"}");
    }

    @Test
    void theApplicationsSerializersOfPlainTypesStillApply() {
        com.fasterxml.jackson.databind.module.SimpleModule asText = new com.fasterxml.jackson.databind.module
                .SimpleModule().addSerializer(Long.class, com.fasterxml.jackson.databind.ser.std.ToStringSerializer
                .instance);
        PayloadCodec longsAsText = new PayloadCodec(JsonMapper.builder().addModule(asText).build());
        JsonMapper intsAsText = JsonMapper.builder().build();
        intsAsText.configOverride(Integer.class).setFormat(com.fasterxml.jackson.annotation.JsonFormat.Value
                .forShape(com.fasterxml.jackson.annotation.JsonFormat.Shape.STRING));
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("n", 5L);
        payload.put("i", 7);
        assertThat(longsAsText.encode("t", "k", payload).json()).isEqualTo("{\"i\":7,\"n\":\"5\"}");
        assertThat(new PayloadCodec(intsAsText).encode("t", "k", payload).json()).isEqualTo("{\"i\":\"7\",\"n\":5}");
    }

    @Test
    void plainArgumentsHaveTheTextTheyHaveInsideAValue() {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("s", "a\"\u00e9\t\uD83D\uDE00");
        payload.put("l", Long.MIN_VALUE);
        payload.put("i", -42);
        payload.put("h", (short) 12);
        payload.put("b", true);
        payload.put("z", null);
        String direct = codec.encode("t", "k", payload).json();
        String nested = codec.encode("t", "k", Map.of("x", payload)).json();
        assertThat("{\"x\":" + direct + "}").isEqualTo(nested);
        assertThat(direct).isEqualTo("{\"b\":true,\"h\":12,\"i\":-42,\"l\":-9223372036854775808,"
                + "\"s\":\"a\\\"\u00e9\\t\uD83D\uDE00\",\"z\":null}");
        assertThatThrownBy(() -> codec.encode("t", "k", Map.of("s", "\uD83D")))
                .isInstanceOf(PayloadNotSerializableException.class).hasMessageContaining("payload argument s");
    }
}
