package io.idempotent.cli;

import io.idempotent.policy.internal.BinaryNames;
import io.idempotent.policy.internal.BindingNames;
import io.idempotent.policy.internal.ClassPathTables;
import io.idempotent.policy.internal.ListedTool;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import java.io.File;
import java.lang.reflect.Type;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The application's tools, found on its class path (given with {@code --app-classpath}) through
 * the release-gate tables {@code META-INF/idempotent/tools.json} and the generated bindings. The
 * command line needs a tool's return type to check that a settled result fits it, exactly as a
 * replay will read it.
 */
final class ToolCatalog {

    static final String TOOLS_JSON = io.idempotent.policy.internal.ReleaseGateTable.RESOURCE;

    private final ClassLoader loader;
    private final Map<String, String> classByTool;

    private ToolCatalog(ClassLoader loader, Map<String, String> classByTool) {
        this.loader = loader;
        this.classByTool = classByTool;
    }

    /** The catalog of the class path {@code classPath} (entries separated by the platform's separator). */
    static ToolCatalog of(String classPath) {
        List<URL> urls = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            File file = new File(entry);
            if (!file.exists()) {
                throw new RefusedException("--app-classpath names " + entry + ", which does not exist");
            }
            try {
                urls.add(file.toURI().toURL());
            } catch (MalformedURLException e) {
                throw new RefusedException("--app-classpath entry " + entry + " is not a path", e);
            }
        }
        ClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ToolCatalog.class.getClassLoader());
        Map<String, String> classes = new HashMap<>();
        ClassPathTables tables = ClassPathTables.of(loader);
        if (tables.unlisted() != null) {
            throw unreadable(tables.unlisted());
        }
        for (ClassPathTables.Table table : tables.tables()) {
            if (table.failure() != null) {
                throw unreadable(table.failure());
            }
            for (ListedTool tool : table.tools()) {
                classes.put(tool.name(), tool.className());
            }
        }
        return new ToolCatalog(loader, classes);
    }

    private static RefusedException unreadable(Exception e) {
        return new RefusedException("cannot read " + TOOLS_JSON + " on --app-classpath: " + e.getMessage(), e);
    }

    /** The generated binding of {@code tool}. */
    ToolBinding binding(String tool) {
        String className = classByTool.get(tool);
        if (className == null) {
            throw new RefusedException("tool " + tool + " is not listed in any " + TOOLS_JSON + " on --app-classpath"
                    + " (tools there: " + new java.util.TreeSet<>(classByTool.keySet()) + ")");
        }
        Class<?> toolClass = load(className)
                .orElseThrow(() -> new RefusedException("class " + className + " of tool " + tool
                        + " is not on --app-classpath"));
        String bindingName = BindingNames.bindingClassName(toolClass.getName(), toolClass.getPackageName());
        ToolBindings bindings;
        try {
            bindings = (ToolBindings) Class.forName(bindingName, true, loader).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
            throw new RefusedException("cannot load the binding " + bindingName + " of tool " + tool + ": " + e, e);
        }
        return bindings.tools().stream().filter(b -> b.policy().name().equals(tool)).findFirst()
                .orElseThrow(() -> new RefusedException(bindingName + " has no binding for tool " + tool));
    }

    /** The type a replay of {@code tool} reads its result into. */
    Type resultType(String tool) {
        return binding(tool).resultType();
    }

    /**
     * tools.json names classes by their canonical name ({@code a.Outer.Inner}); the loader wants
     * the binary one ({@code a.Outer$Inner}), found by the agent's and the runtime's rule.
     */
    private Optional<Class<?>> load(String canonicalName) {
        String binary = BinaryNames.of(canonicalName, loader);
        if (binary == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Class.forName(binary, false, loader));
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        }
    }
}
