package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The release gate and the runtime agree on every result shape: each shape below is compiled by
 * the real processor (with or without {@code javac -parameters}) and is either refused at build
 * time with its fix, or stored by the real runtime (on H2) and replayed equal, its body run once.
 * Never a gate-accepted type whose body runs and whose result then cannot be read back.
 */
class ResultShapesTest {

    private static IdempotentRuntime runtime;

    @BeforeAll
    static void start() {
        runtime = IdempotentRuntime.builder()
                .store("default", "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "").build();
    }

    @AfterAll
    static void stop() {
        runtime.close();
    }

    /** Replays equal. */
    private static final String STORED = null;

    static Stream<Arguments> shapes() {
        return Stream.of(
                shape("Record", "public record Refund(String id, long cents) {}", "Refund",
                        "new Refund(id, 1250L)", STORED),
                shape("PojoWithSetters", """
                        public static class Refund {
                            private String id; private long cents;
                            public String getId() { return id; } public void setId(String id) { this.id = id; }
                            public long getCents() { return cents; } public void setCents(long c) { this.cents = c; }
                            static Refund made(String id) { Refund r = new Refund(); r.setId(id); r.setCents(7L); return r; }
                        }""", "Refund", "Refund.made(id)", STORED),
                shape("CreatorWithJsonProperty", """
                        public static final class Refund {
                            private final String id; private final long cents;
                            @JsonCreator public Refund(@JsonProperty("id") String id, @JsonProperty("cents") long cents) {
                                this.id = id; this.cents = cents; }
                            public String getId() { return id; } public long getCents() { return cents; }
                        }""", "Refund", "new Refund(id, 1250L)", STORED),
                shape("CreatorWithJsonPropertyAndParameters", creatorWithJsonProperty(), "Refund",
                        "new Refund(id, 1250L)", STORED, "-parameters"),
                // The hole of issue 49: accepted by the gate, then unreadable after the body ran.
                shape("BareTwoArgumentCreatorWithParameters", bareTwoArgumentCreator(), "Refund",
                        "new Refund(id, 1250L)", "shapes.Tools.Refund is a @JsonCreator whose parameters"
                                + " are not all named", "-parameters"),
                shape("BareTwoArgumentCreator", bareTwoArgumentCreator(), "Refund", "new Refund(id, 1250L)",
                        "is a @JsonCreator whose parameters are not all named"),
                shape("BareOneArgumentCreator", """
                        public static final class Refund {
                            private final String id;
                            @JsonCreator public Refund(String id) { this.id = id; }
                            public String getId() { return id; }
                        }""", "Refund", "new Refund(id)", "is a @JsonCreator whose parameters are not all named",
                        "-parameters"),
                shape("DelegatingCreator", """
                        public static final class Refund {
                            private final String id;
                            @JsonCreator(mode = JsonCreator.Mode.DELEGATING) public Refund(String id) { this.id = id; }
                            @JsonValue public String getId() { return id; }
                        }""", "Refund", "new Refund(id)", STORED),
                shape("FactoryWithJsonProperty", """
                        public static final class Refund {
                            private final String id;
                            private Refund(String id) { this.id = id; }
                            @JsonCreator static Refund of(@JsonProperty("id") String id) { return new Refund(id); }
                            public String getId() { return id; }
                        }""", "Refund", "Refund.of(id)", STORED),
                shape("BareFactory", """
                        public static final class Refund {
                            private final String id; private final long cents;
                            private Refund(String id, long cents) { this.id = id; this.cents = cents; }
                            @JsonCreator static Refund of(String id, long cents) { return new Refund(id, cents); }
                            public String getId() { return id; } public long getCents() { return cents; }
                        }""", "Refund", "Refund.of(id, 1L)", "is a @JsonCreator whose parameters are not all named",
                        "-parameters"),
                shape("ConstructorProperties", """
                        public static final class Refund {
                            private final String id; private final long cents;
                            @java.beans.ConstructorProperties({"id", "cents"})
                            public Refund(String id, long cents) { this.id = id; this.cents = cents; }
                            public String getId() { return id; } public long getCents() { return cents; }
                        }""", "Refund", "new Refund(id, 1250L)", STORED),
                shape("Builder", """
                        @JsonDeserialize(builder = Refund.Builder.class)
                        public static final class Refund {
                            private final String id; private final long cents;
                            private Refund(Builder b) { this.id = b.id; this.cents = b.cents; }
                            public String getId() { return id; } public long getCents() { return cents; }
                            @JsonPOJOBuilder(withPrefix = "")
                            public static final class Builder {
                                private String id; private long cents;
                                public Builder id(String id) { this.id = id; return this; }
                                public Builder cents(long cents) { this.cents = cents; return this; }
                                public Refund build() { return new Refund(this); }
                            }
                        }""", "Refund", "new Refund.Builder().id(id).cents(5L).build()", STORED),
                shape("BuilderWithoutBuildMethod", """
                        @JsonDeserialize(builder = Refund.Builder.class)
                        public static final class Refund {
                            private final String id;
                            private Refund(String id) { this.id = id; }
                            public String getId() { return id; }
                            @JsonPOJOBuilder(withPrefix = "")
                            public static final class Builder {
                                private String id;
                                public Builder id(String id) { this.id = id; return this; }
                                public Refund create() { return new Refund(id); }
                            }
                        }""", "Refund", "new Refund.Builder().id(id).create()",
                        "whose builder (shapes.Tools.Refund.Builder) has no method build()"),
                shape("GenericRecord", """
                        public record Line(String sku, long cents) {}
                        public record Page<T>(List<T> items, int total) {}""", "Page<Line>",
                        "new Page<>(List.of(new Line(id, 5L)), 1)", STORED),
                shape("Optional", "public record Refund(String id, Optional<String> note) {}", "Optional<Refund>",
                        "Optional.of(new Refund(id, Optional.of(\"n\")))", STORED),
                shape("SealedWithTypeInformation", """
                        @JsonTypeInfo(use = JsonTypeInfo.Id.NAME)
                        @JsonSubTypes({@JsonSubTypes.Type(value = Card.class, name = "card"),
                                @JsonSubTypes.Type(value = Wire.class, name = "wire")})
                        public sealed interface Payment permits Card, Wire {}
                        public record Card(String last4) implements Payment {}
                        public record Wire(String iban) implements Payment {}""", "Payment", "new Wire(id)", STORED),
                shape("SealedWithoutTypeInformation", """
                        public sealed interface Payment permits Card {}
                        public record Card(String last4) implements Payment {}""", "Payment", "new Card(id)",
                        "is an interface or abstract class without type information"),
                shape("NoCreator", """
                        public static final class Refund {
                            private final String id;
                            public Refund(String id) { this.id = id; }
                            public String getId() { return id; }
                        }""", "Refund", "new Refund(id)", "is a class with no creator"),
                // What kapt shows javac of `data class Refund(val id: String)`: the constructor has no
                // annotation. Without jackson-module-kotlin the runtime's mapper has no creator for it.
                shape("KotlinDataClassWithoutKotlinModule", """
                        @kotlin.Metadata(mv = {2, 2, 0}, k = 1)
                        public static final class Refund {
                            private final String id;
                            public Refund(String id) { this.id = id; }
                            public String getId() { return id; }
                        }""", "Refund", "new Refund(id)", "is a Kotlin class whose constructor Jackson can call"
                                + " only with jackson-module-kotlin"));
    }

    private static String bareTwoArgumentCreator() {
        return """
                public static final class Refund {
                    private final String id; private final long cents;
                    @JsonCreator public Refund(String id, long cents) { this.id = id; this.cents = cents; }
                    public String getId() { return id; } public long getCents() { return cents; }
                }""";
    }

    private static String creatorWithJsonProperty() {
        return """
                public static final class Refund {
                    private final String id; private final long cents;
                    @JsonCreator public Refund(@JsonProperty("id") String id, @JsonProperty("cents") long cents) {
                        this.id = id; this.cents = cents; }
                    public String getId() { return id; } public long getCents() { return cents; }
                }""";
    }

    private static Arguments shape(String name, String declarations, String result, String value, String refusal,
            String... options) {
        return Arguments.of(name, declarations, result, value, refusal, List.of(options));
    }

    private static JavaFileObject tools(String declarations, String result, String value) {
        return JavaFileObjects.forSourceString("shapes.Tools", """
                package shapes;

                import com.fasterxml.jackson.annotation.*;
                import com.fasterxml.jackson.databind.annotation.*;
                import io.idempotent.annotations.IdempotentTool;
                import io.idempotent.annotations.Retry;
                import java.util.List;
                import java.util.Optional;

                public class Tools {
                    public static int runs;

                %s

                    @IdempotentTool(key = "make:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
                    public %s make(String id) {
                        runs++;
                        return %s;
                    }
                }
                """.formatted(declarations.indent(4), result, value));
    }

    private static final JavaFileObject KOTLIN_METADATA = JavaFileObjects.forSourceString("kotlin.Metadata", """
            package kotlin;

            /** Stands in for Kotlin's annotation on every class kotlinc (and kapt's stubs) write. */
            @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
            public @interface Metadata {
                int k() default 1;
                int[] mv() default {};
            }
            """);

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void isRefusedWithItsFixOrStoredAndReplayed(String name, String declarations, String result, String value,
            String refusal, List<String> options) throws Throwable {
        List<String> all = new ArrayList<>(List.of("-Xlint:all,-processing"));
        all.addAll(options);
        Compilation compilation = Compiler.javac().withProcessors(new IdempotentToolProcessor()).withOptions(all)
                .compile(KOTLIN_METADATA, tools(declarations, result, value));
        if (refusal != null) {
            assertThat(compilation).hadErrorContaining("[IdemResultReadBack] Tools.make returns");
            assertThat(compilation).hadErrorContaining(refusal);
            return;
        }
        assertThat(compilation).succeededWithoutWarnings();
        ClassLoader loader = Compilations.load(compilation);
        Class<?> toolsClass = loader.loadClass("shapes.Tools");
        Object tools = toolsClass.getDeclaredConstructor().newInstance();
        Method make = toolsClass.getDeclaredMethod("make", String.class);
        ToolBinding binding = ((ToolBindings) loader.loadClass("shapes.Tools_IdempotentTools")
                .getDeclaredConstructor().newInstance()).tools().get(0);
        Object[] args = {name + "_" + UUID.randomUUID()};

        Object first;
        Object replayed;
        try (Step ignored = Step.begin("approved_17")) {
            first = runtime.call(binding, args, () -> make.invoke(tools, args));
            replayed = runtime.call(binding, args, () -> make.invoke(tools, args));
        }

        assertThat(toolsClass.getField("runs").getInt(null)).isEqualTo(1);
        assertThat(replayed).isNotSameAs(first).usingRecursiveComparison().isEqualTo(first);
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper().findAndRegisterModules().writeValueAsString(replayed)).contains(args[0].toString());
    }
}
