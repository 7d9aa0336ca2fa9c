package io.idempotent.test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The check that no tool ships without its contract test: every tool listed in a
 * {@code META-INF/idempotent/tools.json} on the test class path (the processor's release-gate
 * table) must have a {@link ToolContract} in a static field of a class under the given packages.
 * Add it once to the test suite:
 *
 * <pre>{@code
 * @Test
 * void everyToolHasAContractTest() {
 *     ContractCoverage.assertEveryToolHasAContract("com.acme.tools");
 * }
 * }</pre>
 */
public final class ContractCoverage {

    static final String TOOLS_JSON = "META-INF/idempotent/tools.json";
    private static final System.Logger LOG = System.getLogger(ContractCoverage.class.getName());

    private ContractCoverage() {
    }

    /**
     * Fails when a listed tool has no contract.
     *
     * @param packages the packages (and their sub-packages) that hold the contract tests
     * @throws AssertionError naming every tool without a contract test and where it is declared
     */
    public static void assertEveryToolHasAContract(String... packages) {
        assertEveryToolHasAContract(Set.of(), packages);
    }

    /**
     * Fails when a listed tool has no contract, except the tools named in {@code exempt} (for
     * example tools of a library that tests them itself).
     */
    public static void assertEveryToolHasAContract(Set<String> exempt, String... packages) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        Map<String, String> listed = listedTools(loader);
        if (listed.isEmpty()) {
            throw new AssertionError("no tool is listed in any " + TOOLS_JSON + " on the class path: is the"
                    + " idempotent-processor on the annotation processor path of the build?");
        }
        Set<String> covered = coveredTools(loader, packages);
        List<String> missing = new ArrayList<>();
        listed.forEach((tool, where) -> {
            if (!covered.contains(tool) && !exempt.contains(tool)) {
                missing.add(tool + " (" + where + ")");
            }
        });
        if (!missing.isEmpty()) {
            throw new AssertionError("tools listed in " + TOOLS_JSON + " without a contract test: "
                    + String.join(", ", missing) + ". Add a ToolContract for each (docs/testing.md)"
                    + " in a test class under " + String.join(", ", packages) + "; contracts found for " + covered);
        }
    }

    /** Tool name to "class.method" of every tools.json on the class path. */
    static Map<String, String> listedTools(ClassLoader loader) {
        Map<String, String> tools = new LinkedHashMap<>();
        JsonMapper mapper = JsonMapper.builder().build();
        try {
            for (URL url : Collections.list(loader.getResources(TOOLS_JSON))) {
                try (InputStream in = url.openStream()) {
                    for (JsonNode tool : mapper.readTree(in).path("tools")) {
                        tools.put(tool.path("name").asText(), tool.path("class").asText() + "."
                                + tool.path("method").asText());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + TOOLS_JSON, e);
        }
        return tools;
    }

    /** The tools of the ToolContract static fields of every class under {@code packages}. */
    static Set<String> coveredTools(ClassLoader loader, String... packages) {
        Set<String> covered = new TreeSet<>();
        for (String pkg : packages) {
            for (String className : classesUnder(loader, pkg)) {
                Class<?> type;
                try {
                    type = Class.forName(className, false, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    // Not loadable here, so it cannot hold a contract this suite runs.
                    LOG.log(System.Logger.Level.DEBUG, "coverage check skips " + className + ": " + e);
                    continue;
                }
                for (Field field : declaredFields(type)) {
                    if (Modifier.isStatic(field.getModifiers()) && ToolContract.class.isAssignableFrom(field.getType())) {
                        try {
                            field.setAccessible(true);
                            Object contract = field.get(null);
                            if (contract != null) {
                                covered.add(((ToolContract<?>) contract).toolName());
                            }
                        } catch (IllegalAccessException e) {
                            throw new IllegalStateException("cannot read the contract " + className + "."
                                    + field.getName(), e);
                        }
                    }
                }
            }
        }
        return covered;
    }

    private static Field[] declaredFields(Class<?> type) {
        try {
            return type.getDeclaredFields();
        } catch (LinkageError e) {
            LOG.log(System.Logger.Level.DEBUG, "coverage check skips " + type.getName() + ": " + e);
            return new Field[0];
        }
    }

    private static List<String> classesUnder(ClassLoader loader, String pkg) {
        String path = pkg.replace('.', '/');
        List<String> names = new ArrayList<>();
        try {
            Enumeration<URL> roots = loader.getResources(path);
            while (roots.hasMoreElements()) {
                URL root = roots.nextElement();
                if ("file".equals(root.getProtocol())) {
                    Path dir = Path.of(root.toURI());
                    try (Stream<Path> files = Files.walk(dir)) {
                        files.filter(f -> f.toString().endsWith(".class")).forEach(f -> names.add(pkg + "."
                                + dir.relativize(f).toString().replace(f.getFileSystem().getSeparator(), ".")
                                        .replaceAll("\\.class$", "")));
                    }
                } else if ("jar".equals(root.getProtocol())) {
                    JarURLConnection connection = (JarURLConnection) root.openConnection();
                    connection.setUseCaches(false); // a private copy: closing it cannot close the class loader's
                    try (JarFile jar = connection.getJarFile()) {
                        for (JarEntry entry : Collections.list(jar.entries())) {
                            String name = entry.getName();
                            if (name.startsWith(path + "/") && name.endsWith(".class")) {
                                names.add(name.substring(0, name.length() - 6).replace('/', '.'));
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the classes of " + pkg, e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot list the classes of " + pkg, e);
        }
        return names;
    }
}
