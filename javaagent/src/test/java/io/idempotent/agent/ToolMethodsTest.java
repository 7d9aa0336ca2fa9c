package io.idempotent.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.agent.fixtures.ListedShapes;
import io.idempotent.build.weaving.ToolMethods;
import io.idempotent.it.kotlin.CompanionTools;
import io.idempotent.it.tools.ShapeTools;
import io.idempotent.policy.internal.ConfigurationSources;
import io.idempotent.policy.internal.ConfiguredStores;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which methods of a class the agent wraps: those the release-gate table lists (by name and
 * parameter types, whether or not their annotation can be resolved) and the annotated ones; a
 * listed tool the class has no such method for makes the methods of its name refuse their calls.
 */
class ToolMethodsTest {

    @TempDir
    Path dir;

    @Test
    void theTableOnTheClassPathListsTheTwelveTestToolsByClass() {
        ListedTools listed = ListedTools.of(ClassLoader.getSystemClassLoader());
        assertThat(listed.all()).hasSize(12);
        // Kotlin's companion tool once, on the companion (not also on its static bridge).
        assertThat(listed.of("io.idempotent.it.kotlin.CompanionTools.Companion")).hasSize(1);
        assertThat(listed.of("io.idempotent.it.kotlin.CompanionTools")).isEmpty();
        assertThat(listed.of(ShapeTools.class.getCanonicalName())).hasSize(5);
        // The asynchronous tools are listed like any other, the static one too.
        assertThat(listed.of("io.idempotent.it.probe.AsyncProbeTools")).hasSize(3);
        // The charge and the charge that needs approval.
        assertThat(listed.of("io.idempotent.it.probe.ProbeTools")).hasSize(2);
        assertThat(listed.classNames()).contains("io.idempotent.it.probe.ProbeTools",
                "io.idempotent.it.absent.OptionalDependencyTools");
    }

    /**
     * Kotlin's companion tool: the static bridge in the outer class and the companion's member both
     * carry the annotation; only the member is wrapped (the bridge calls it), so one call claims once.
     */
    @Test
    void aKotlinCompanionToolIsWrappedOnTheCompanionsMemberOnly() {
        ClassLoader loader = CompanionTools.class.getClassLoader();
        TypeDescription outer = TypeDescription.ForLoadedType.of(CompanionTools.class);
        TypeDescription companion = TypeDescription.ForLoadedType.of(CompanionTools.Companion.class);
        assertThat(ToolMethods.declaresTools(outer, ListedTools.forType(outer, loader))).isFalse();
        assertThat(ToolMethods.of(outer, ListedTools.forType(outer, loader)).wrappedCount()).isZero();
        assertThat(ToolMethods.declaresTools(companion, ListedTools.forType(companion, loader))).isTrue();
        assertThat(wrapped(companion, ToolMethods.of(companion, ListedTools.forType(companion, loader))))
                .containsExactly("deploy(Ljava/lang/String;)Ljava/lang/String;");
        // The bridge is told by its shape: @JvmStatic is not kept where the agent could read it.
        assertThat(ToolMethods.isKotlinCompanionBridge(outer.getDeclaredMethods().filter(
                net.bytebuddy.matcher.ElementMatchers.named("deploy")).getOnly())).isTrue();
    }

    @Test
    void everyListedToolOfAClassIsWrapped() {
        TypeDescription type = TypeDescription.ForLoadedType.of(ShapeTools.class);
        ToolMethods tools = ToolMethods.of(type, ListedTools.forType(type, ShapeTools.class.getClassLoader()));
        assertThat(tools.wrappedCount()).isEqualTo(5);
        assertThat(tools.strayCount()).isZero();
        assertThat(tools.unmatched()).isEmpty();
    }

    @Test
    void aListedMethodIsFoundByItsErasedParameterTypesWithoutAnyAnnotation() throws Exception {
        ClassLoader loader = withTable("""
                {"tools": [
                  {"name": "shapes", "class": "io.idempotent.agent.fixtures.ListedShapes",
                   "method": "shapes(java.util.Map<java.lang.String,java.util.List<java.lang.Integer>> filters,\
                 int[] counts, T item, java.util.List<? extends T>[] lists,\
                 io.idempotent.agent.fixtures.ListedShapes.Inner inner, java.lang.String... tags)"},
                  {"name": "charge", "class": "io.idempotent.agent.fixtures.ListedShapes",
                   "method": "charge(java.lang.String customer, long cents)"}
                ]}""");
        TypeDescription type = TypeDescription.ForLoadedType.of(ListedShapes.class);
        ToolMethods tools = ToolMethods.of(type, ListedTools.forType(type, loader));
        assertThat(ToolMethods.declaresTools(type, ListedTools.forType(type, loader))).isTrue();
        assertThat(tools.unmatched()).isEmpty();
        assertThat(wrapped(type, tools)).containsExactlyInAnyOrder(
                "shapes(Ljava/util/Map;[ILjava/lang/Object;[Ljava/util/List;"
                        + "Lio/idempotent/agent/fixtures/ListedShapes$Inner;[Ljava/lang/String;)Ljava/lang/String;",
                "charge(Ljava/lang/String;J)J");
        assertThat(tools.strayCount()).isZero();
    }

    @Test
    void aListedToolTheClassNoLongerHasRefusesTheMethodsOfItsName() throws Exception {
        // The table is another build's: charge(String, short) is gone; both charge overloads must refuse.
        ClassLoader loader = withTable("""
                {"tools": [{"name": "charge", "class": "io.idempotent.agent.fixtures.ListedShapes",
                            "method": "charge(java.lang.String customer, short cents)"}]}""");
        TypeDescription type = TypeDescription.ForLoadedType.of(ListedShapes.class);
        ToolMethods tools = ToolMethods.of(type, ListedTools.forType(type, loader));
        assertThat(tools.unmatched()).extracting(t -> t.name()).containsExactly("charge");
        assertThat(tools.wrappedCount()).isZero();
        assertThat(tools.strayCount()).isEqualTo(2);
        assertThat(type.getDeclaredMethods().filter(tools.strays()::matches))
                .extracting(MethodDescription::getName).containsOnly("charge");
    }

    @Test
    void aClassNeitherListedNorAnnotatedHasNoTools() {
        TypeDescription type = TypeDescription.ForLoadedType.of(ListedShapes.class);
        assertThat(ToolMethods.declaresTools(type, ListedTools.forType(type, ListedShapes.class.getClassLoader()))).isFalse();
    }

    @Test
    void aNestedClassIsLoadedByTheBinaryNameOfItsCanonicalName() {
        ClassLoader loader = ListedShapes.class.getClassLoader();
        assertThat(ListedClasses.binaryName("io.idempotent.agent.fixtures.ListedShapes.Inner", loader))
                .isEqualTo("io.idempotent.agent.fixtures.ListedShapes$Inner");
        assertThat(ListedClasses.binaryName("io.idempotent.agent.fixtures.ListedShapes", loader))
                .isEqualTo("io.idempotent.agent.fixtures.ListedShapes");
        assertThat(ListedClasses.binaryName("io.idempotent.agent.fixtures.Absent", loader)).isNull();
    }

    private static final String PLAIN = "a plain class path (a shaded or uber jar is one)";

    @Test
    void theStartLineSaysWhatWasWrappedAndRefusedBesideWhatIsListed() {
        String embedded = ConfiguredStores.of(new ConfigurationSources(Map.of(), Map.of())).describe();
        assertThat(StartLine.describe(7, 0, 0, 7, 0, embedded, PLAIN)).isEqualTo("started: wrapped 7 tool method(s), 7 listed in"
                + " META-INF/idempotent/tools.json; the runtime uses the embedded H2 store ./.idempotent/operations, as"
                + " no store URL is configured (each machine then keeps operations of its own), opened by the first"
                + " tool call");
        assertThat(StartLine.describe(0, 1, 0, 1, 0, embedded, PLAIN)).isEqualTo("started: wrapped 0 tool method(s), 1 woven at"
                + " build time, 1 listed in META-INF/idempotent/tools.json; the runtime uses the embedded H2 store"
                + " ./.idempotent/operations, as no store URL is configured (each machine then keeps operations of its"
                + " own), opened by the first tool call");
        String configured = ConfiguredStores.of(new ConfigurationSources(Map.of("idempotent.agent.store.url",
                "jdbc:postgresql://db/app"), Map.of("IDEMPOTENT_STORE_BILLING_URL", "jdbc:postgresql://db/b")))
                .describe();
        assertThat(StartLine.describe(0, 0, 2, 3, 1, configured, "a Spring Boot jar app.jar")).isEqualTo("started:"
                + " will wrap 1 tool method(s) when the application's class loader loads their classes (a line each);"
                + " 3 listed in META-INF/idempotent/tools.json in a Spring Boot jar app.jar; 2 refuse every call (see"
                + " the ERROR lines); the runtime uses the configured stores default (idempotent.agent.store.url),"
                + " billing (IDEMPOTENT_STORE_BILLING_URL), opened by the first tool call");
        // Tools the application's own class loader loads later are never counted as "wrapped 0".
        assertThat(StartLine.describe(2, 0, 0, 6, 4, embedded, "a Quarkus fast-jar /srv/quarkus-app"))
                .startsWith("started: wrapped 2 tool method(s) now, will wrap 4 tool method(s) when the application's"
                        + " class loader loads their classes (a line each); 6 listed in META-INF/idempotent/tools.json"
                        + " in a Quarkus fast-jar /srv/quarkus-app;");
    }

    private static List<String> wrapped(TypeDescription type, ToolMethods tools) {
        return type.getDeclaredMethods().filter(tools.wrapped()::matches).stream()
                .map(m -> m.getInternalName() + m.getDescriptor()).toList();
    }

    /** A loader that sees one more release-gate table, {@code json}, besides the class path's. */
    private ClassLoader withTable(String json) throws IOException {
        Path table = dir.resolve("META-INF/idempotent/tools.json");
        Files.createDirectories(table.getParent());
        Files.writeString(table, json);
        return new URLClassLoader(new URL[] {dir.toUri().toURL()}, ListedShapes.class.getClassLoader());
    }
}
