package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The runtime's library-range run (runtime/pom.xml, profile {@code library-range}) really runs on
 * the other ends of the supported ranges: the H2 and Jackson on its class path are the versions
 * the build named, not the build's own. The default run leaves it out (runtime/pom.xml).
 */
class LibraryRangeTest {

    @Test
    void theStoreTestsOfTheLibraryRangeRunOnTheVersionsNamed() throws Exception {
        String h2 = System.getProperty("build.library-range.h2");
        String jackson = System.getProperty("build.library-range.jackson");
        assertThat(h2).as("build.library-range.h2, set by the library-range run").isNotNull();
        assertThat(jackson).as("build.library-range.jackson, set by the library-range run").isNotNull();
        // Read at run time: H2's version constants are compile-time constants, inlined by javac.
        Class<?> constants = Class.forName("org.h2.engine.Constants");
        assertThat(constants.getField("VERSION_MAJOR").get(null) + "." + constants.getField("VERSION_MINOR").get(null)
                + "." + constants.getField("BUILD_ID").get(null)).isEqualTo(h2);
        assertThat(com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString()).isEqualTo(jackson);
        assertThat(com.fasterxml.jackson.core.json.PackageVersion.VERSION.toString()).isEqualTo(jackson);
        assertThat(com.fasterxml.jackson.datatype.jsr310.PackageVersion.VERSION.toString()).isEqualTo(jackson);
    }
}
