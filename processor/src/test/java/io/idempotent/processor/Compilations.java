package io.idempotent.processor;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.processing.Processor;
import javax.tools.JavaFileObject;

/** Compiles test inputs with the processor, and loads what they compiled to. */
final class Compilations {

    private Compilations() {
    }

    static Compilation compile(String... resources) {
        return compile(List.of(), resources);
    }

    /**
     * Compiles with {@code others} (other processors of the same build, run first in each round,
     * since the processor claims its annotations) and the processor.
     */
    static Compilation compile(List<Processor> others, String... resources) {
        JavaFileObject[] files = new JavaFileObject[resources.length];
        for (int i = 0; i < resources.length; i++) {
            files[i] = JavaFileObjects.forResource(resources[i]);
        }
        List<Processor> processors = new ArrayList<>();
        processors.addAll(others);
        processors.add(new IdempotentToolProcessor());
        return Compiler.javac().withProcessors(processors).withOptions("-Xlint:all,-processing").compile(files);
    }

    /** A class loader over the class files of a compilation (parent: the test's own). */
    static ClassLoader load(Compilation compilation) {
        Map<String, byte[]> classes = new HashMap<>();
        for (JavaFileObject file : compilation.generatedFiles()) {
            if (file.getKind() == JavaFileObject.Kind.CLASS) {
                String path = file.toUri().getPath();
                String name = path.substring(path.indexOf("CLASS_OUTPUT/") + "CLASS_OUTPUT/".length(),
                        path.length() - ".class".length()).replace('/', '.');
                try (InputStream in = file.openInputStream()) {
                    classes.put(name, in.readAllBytes());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return new ClassLoader(Compilations.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                byte[] bytes = classes.get(name);
                if (bytes == null) {
                    throw new ClassNotFoundException(name);
                }
                return defineClass(name, bytes, 0, bytes.length);
            }
        };
    }

    static String resource(String name) {
        try (InputStream in = Compilations.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + name);
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
