package io.idempotent.agent;

import io.idempotent.build.weaving.ToolMethods;
import java.lang.instrument.IllegalClassFormatException;
import java.nio.charset.StandardCharsets;
import java.security.ProtectionDomain;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;

/**
 * Lets the protocol's transformation see only the classes that can have tools: those a
 * release-gate table lists, and those whose class file names the {@code @IdempotentTool}
 * annotation (an annotated method puts its descriptor in the constant pool). Every other class is
 * passed over on a search of its bytes, instead of Byte Buddy parsing all its methods to look for
 * the annotation, which made an application that loads thousands of classes (Quarkus) start
 * several times slower with the agent.
 */
final class ToolClassFilter extends ResettableClassFileTransformer.WithDelegation {

    private static final byte[] ANNOTATION = ("L" + ToolMethods.ANNOTATION.replace('.', '/') + ";")
            .getBytes(StandardCharsets.UTF_8);

    ToolClassFilter(ResettableClassFileTransformer protocol) {
        super(protocol);
    }

    @Override
    public byte[] transform(ClassLoader loader, String internalName, Class<?> redefined, ProtectionDomain domain,
            byte[] classFile) throws IllegalClassFormatException {
        return mayHaveTools(loader, internalName, classFile)
                ? classFileTransformer.transform(loader, internalName, redefined, domain, classFile) : null;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String internalName, Class<?> redefined,
            ProtectionDomain domain, byte[] classFile) throws IllegalClassFormatException {
        return mayHaveTools(loader, internalName, classFile)
                ? classFileTransformer.transform(module, loader, internalName, redefined, domain, classFile) : null;
    }

    /** Reading a loader's tables may load classes, which come back here: those go on to Byte Buddy unfiltered. */
    private static final ThreadLocal<Boolean> READING = new ThreadLocal<>();

    /** Its class file names the annotation, or it is listed (by its loader's tables or the packaging's). */
    static boolean mayHaveTools(ClassLoader loader, String internalName, byte[] classFile) {
        if (internalName == null || classFile == null || contains(classFile, ANNOTATION)
                || READING.get() != null) {
            return true;
        }
        READING.set(Boolean.TRUE);
        try {
            return ListedTools.listed(internalName.replace('/', '.').replace('$', '.'), loader);
        } finally {
            READING.remove();
        }
    }

    private static boolean contains(byte[] bytes, byte[] part) {
        byte first = part[0];
        for (int i = 0, last = bytes.length - part.length; i <= last; i++) {
            if (bytes[i] != first) {
                continue;
            }
            int j = 1;
            while (j < part.length && bytes[i + j] == part[j]) {
                j++;
            }
            if (j == part.length) {
                return true;
            }
        }
        return false;
    }
}
