package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import org.junit.jupiter.api.Test;

/** A generic method's type-variable parameter: described by its erasure, read through its bound. */
class GenericParametersTest {

    @Test
    void aTypeVariableParameterIsItsBoundInTheDescriptorAndTheKey() throws Exception {
        Compilation compilation = Compilations.compile("good/GenericParameters.java");
        assertThat(compilation).succeededWithoutWarnings();
        ClassLoader loader = Compilations.load(compilation);
        ToolBinding note = ((ToolBindings) loader.loadClass("good.GenericParameters_IdempotentTools")
                .getDeclaredConstructor().newInstance()).tools().get(0);
        assertThat(note.methodDescriptor())
                .isEqualTo("note(Lgood/GenericParameters$Ticket;Ljava/lang/String;)Ljava/lang/String;");
        Object ticket = loader.loadClass("good.GenericParameters$Ticket").getConstructor(String.class)
                .newInstance("t_17");
        assertThat(note.key(new Object[] {ticket, "hello"})).isEqualTo("note:t_17:hello");
    }
}
