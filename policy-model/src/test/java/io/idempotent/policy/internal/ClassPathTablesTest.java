package io.idempotent.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one reader of the release-gate tables through a class loader: once per loader, every copy, each failure kept. */
class ClassPathTablesTest {

    @TempDir
    Path root;

    @Test
    void everyCopyIsReadOncePerLoaderAndATableThatIsNoTableIsKeptWithItsFailure() throws Exception {
        Path good = table("good", "{\"tools\": [{\"name\": \"refund\", \"class\": \"com.acme.Tools\","
                + " \"method\": \"refund(java.lang.String id)\"}]}");
        Path bad = table("bad", "{\"tools\": [");
        AtomicInteger listings = new AtomicInteger();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {good.toUri().toURL(), bad.toUri().toURL()}, null) {
            @Override
            public Enumeration<URL> getResources(String name) throws IOException {
                listings.incrementAndGet();
                return super.getResources(name);
            }
        }) {
            ClassPathTables tables = ClassPathTables.of(loader);

            assertThat(ClassPathTables.of(loader)).isSameAs(tables);
            assertThat(listings).hasValue(1);
            assertThat(tables.unlisted()).isNull();
            assertThat(tables.tables()).hasSize(2);
            assertThat(tables.tables().get(0).tools()).extracting(ListedTool::name).containsExactly("refund");
            assertThat(tables.tables().get(0).failure()).isNull();
            assertThat(tables.tables().get(1).location().toString()).contains("/bad/");
            assertThat(tables.tables().get(1).tools()).isEmpty();
            assertThat(tables.tables().get(1).failure()).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aLoaderThatCannotListItsTablesIsKeptAsUnlistedAndOneThatThrowsIsAskedAgain() throws Exception {
        AtomicInteger listings = new AtomicInteger();
        ClassLoader unlisting = new ClassLoader(null) {
            @Override
            public Enumeration<URL> getResources(String name) throws IOException {
                listings.incrementAndGet();
                throw new IOException("no listing here");
            }
        };
        assertThat(ClassPathTables.of(unlisting).unlisted()).hasMessage("no listing here");
        assertThat(ClassPathTables.of(unlisting).tables()).isEmpty();
        assertThat(listings).hasValue(1);

        ClassLoader refusing = new ClassLoader(null) {
            @Override
            public Enumeration<URL> getResources(String name) {
                listings.incrementAndGet();
                throw new SecurityException("not you");
            }
        };
        for (int call = 0; call < 2; call++) {
            try {
                ClassPathTables.of(refusing);
            } catch (SecurityException expected) {
                // nothing is kept: the next call asks again
            }
        }
        assertThat(listings).hasValue(3);
    }

    @Test
    void theBootstrapLoaderStandsForTheSystemClassLoader() {
        assertThat(ClassPathTables.of(null)).isSameAs(ClassPathTables.of(ClassLoader.getSystemClassLoader()));
    }

    private Path table(String dir, String json) throws IOException {
        Path file = root.resolve(dir).resolve(ReleaseGateTable.RESOURCE);
        Files.createDirectories(file.getParent());
        Files.writeString(file, json);
        return root.resolve(dir);
    }
}
