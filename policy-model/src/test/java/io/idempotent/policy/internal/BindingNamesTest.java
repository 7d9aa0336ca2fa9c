package io.idempotent.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The binding class's name: what the processor writes is what the runtime and the agent load. */
class BindingNamesTest {

    @Test
    void aTopLevelClassGetsTheSuffixInItsOwnPackage() {
        assertThat(BindingNames.bindingClassName("com.acme.Tools", "com.acme")).isEqualTo("com.acme.Tools_IdempotentTools");
        assertThat(BindingNames.bindingSimpleName("com.acme.Tools", "com.acme")).isEqualTo("Tools_IdempotentTools");
    }

    @Test
    void nestedClassesJoinTheirSimpleNames() {
        assertThat(BindingNames.bindingClassName("com.acme.Tools$Refunds$V2", "com.acme"))
                .isEqualTo("com.acme.Tools_Refunds_V2_IdempotentTools");
    }

    @Test
    void theUnnamedPackageHasNoDot() {
        assertThat(BindingNames.bindingClassName("Tools$Refunds", "")).isEqualTo("Tools_Refunds_IdempotentTools");
        assertThat(BindingNames.bindingSimpleName("Tools", "")).isEqualTo("Tools_IdempotentTools");
    }

    @Test
    void theAnnotationsClassFileIsARealClassOfTheAnnotationsJar() {
        assertThat(BindingNames.ANNOTATIONS_CLASS_FILE).isEqualTo("io/idempotent/annotations/Retry.class");
        assertThat(BindingNames.SUFFIX).isEqualTo("_IdempotentTools");
    }
}
