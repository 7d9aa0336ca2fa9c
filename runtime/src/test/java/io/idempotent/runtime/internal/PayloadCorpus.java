package io.idempotent.runtime.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Payloads whose canonical form has been unstable somewhere: doubles and floats whose
 * {@code toString} differs between JDK 17 and JDK 19+ (JDK-4511638), sets whose iteration order
 * differs between JVMs (per-JVM hash salt, identity hash codes of enums), strings beyond the
 * Basic Multilingual Plane, numbers in many forms, java.time values and nesting of all of them.
 * {@link #main} prints one {@code name sha256} line per entry, so that a forked JVM of another JDK
 * can be compared with this one.
 */
public final class PayloadCorpus {

    /** Enum constants hash by identity: a HashSet of them iterates in a per-JVM order. */
    enum Colour { RED, GREEN, BLUE, CYAN, MAGENTA, YELLOW, BLACK, WHITE, ORANGE, PURPLE, BROWN, GREY }

    record Line(String sku, int quantity, double price, Set<String> tags) {
    }

    record Order(String id, List<Line> lines, Map<String, Object> attributes, Optional<String> note) {
    }

    private PayloadCorpus() {
    }

    /** The mapper the runtime uses by default. */
    static ObjectMapper mapper() {
        return JsonMapper.builder().findAndAddModules().disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();
    }

    /** The corpus, by entry name (sorted). */
    static Map<String, Map<String, Object>> entries() {
        Map<String, Map<String, Object>> corpus = new TreeMap<>();
        // Doubles whose Double.toString differs between JDK 17 and JDK 19+ (and a few that do not).
        double[] doubles = {2e23, 1.0E23, 8.41E21, 9.9E-324, 9.9E-323, 4.8726570057E288, 2.82879384806159E17,
            1.387364135037754E18, 1.45800632428665E17, Double.MIN_VALUE, Double.MAX_VALUE, Double.MIN_NORMAL,
            0x1p-1074, 0x1p-1022, 2.0E-3, 1.0E-5, 0.1, 1e21, 9007199254740993.0, -0.0, 123.456, 1.0 / 3};
        for (int i = 0; i < doubles.length; i++) {
            corpus.put(String.format("double-%02d", i), Map.of("value", doubles[i]));
        }
        float[] floats = {8.589974E9f, 1.4E-45f, Float.MAX_VALUE, Float.MIN_NORMAL, 0.1f, 2.0E-3f, 1.0E10f,
            6.7108864E7f, 1.00000005E20f};
        for (int i = 0; i < floats.length; i++) {
            corpus.put(String.format("float-%02d", i), Map.of("value", floats[i]));
        }
        Set<String> twenty = Set.of("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
                "india", "juliett", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
                "sierra", "tango");
        corpus.put("set-of-strings", Map.of("tags", twenty));
        corpus.put("hashset-of-enums", Map.of("colours", new HashSet<>(EnumSet.allOf(Colour.class))));
        corpus.put("set-of-numbers", Map.of("ids", Set.of(3L, 1L, 2L, 10L, 20L, 30L, 100L, 7L, 8L, 9L)));
        corpus.put("set-of-records", Map.of("lines", Set.of(new Line("a", 1, 0.5, Set.of("x", "y")),
                new Line("b", 2, 2e23, Set.of()), new Line("c", 3, 8.41E21, Set.of("z", "y", "x", "w")))));
        corpus.put("strings", Map.of("plain", "refund 842", "quotes", "\"\\/\b\f\n\r\t", "control", "\u0000\u001f\u007f",
                "emoji", "\uD83D\uDE00 \uD83C\uDDEA\uD83C\uDDFA", "combining", "e\u0301 \u00e9", "cjk", "\u65e5\u672c",
                "bom", "\uFEFF", "lineSeparators", "\u2028\u2029"));
        corpus.put("integers", Map.of("int", Integer.MIN_VALUE, "long", Long.MAX_VALUE, "big",
                new BigInteger("-123456789012345678901234567890123456789"), "short", (short) -3, "byte", (byte) 7));
        corpus.put("decimals", Map.of("a", new BigDecimal("12.50"), "b", new BigDecimal("1E+3"), "c",
                new BigDecimal("-0.000120"), "d", new BigDecimal("1E-999"), "e", new BigDecimal("0E-10"), "f",
                new BigDecimal("123456789.987654321")));
        corpus.put("time", Map.of("instant", Instant.parse("2026-12-03T10:15:30.123456789Z"), "date",
                LocalDate.of(2026, 12, 3), "offset", OffsetDateTime.of(2026, 12, 3, 10, 15, 0, 0, ZoneOffset.ofHours(-5)),
                "duration", Duration.ofMillis(90_061_001)));
        Map<String, Object> attributes = new LinkedHashMap<>();
        attributes.put("z", Set.of(Colour.RED, Colour.BLUE, Colour.GREEN));
        attributes.put("a", null);
        attributes.put("m", Map.of("nested", List.of(1, 2.5, "three", true)));
        corpus.put("nested", Map.of("order", new Order("o-1", List.of(new Line("sku-1", 2, 19.99, Set.of("gift", "red"))),
                attributes, Optional.of("leave at the door")), "uuid",
                UUID.fromString("123e4567-e89b-12d3-a456-426614174000"), "bytes", new byte[] {0, 1, 2, (byte) 255},
                "colour", Colour.CYAN, "char", 'x', "flag", false, "empty", Optional.empty()));
        return corpus;
    }

    /** Every entry's hash, by name. */
    static Map<String, String> hashes() {
        PayloadCodec codec = new PayloadCodec(mapper());
        Map<String, String> hashes = new TreeMap<>();
        entries().forEach((name, payload) -> hashes.put(name, codec.encode("corpus", name, payload).sha256()));
        return hashes;
    }

    /** Prints {@code name sha256} per line. */
    public static void main(String[] args) {
        hashes().forEach((name, hash) -> System.out.println(name + " " + hash));
    }
}
