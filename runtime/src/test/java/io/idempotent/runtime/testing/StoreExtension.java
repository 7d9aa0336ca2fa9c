package io.idempotent.runtime.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;

/**
 * Gives each test a real database, once H2 and once PostgreSQL, and cleans up after it: H2 gets
 * a fresh in-memory database per test, PostgreSQL (one embedded server per JVM) has the
 * library's tables dropped after each test. Every session runs in a time zone (UTC+14) different
 * from the JVM's, so any use of the JVM's clock or zone instead of the database's shows up.
 */
public final class StoreExtension implements TestTemplateInvocationContextProvider {

    /** The session time zone of every test connection. */
    public static final String SESSION_TIME_ZONE = "Pacific/Kiritimati";

    private static EmbeddedPostgres postgres;

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return true;
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        return Stream.of(Database.values()).filter(StoreExtension::chosen).map(StoreExtension::invocation);
    }

    /**
     * Whether tests run on {@code database}: all of them, unless the system property
     * {@code idempotent.test.databases} names some (comma-separated, e.g. {@code H2}; empty means
     * all). The runtime's library-range run (runtime/pom.xml) names H2 only, as its libraries are
     * H2's and Jackson's; the mutation run (docs/testing.md) may, to keep one run per mutant short.
     */
    private static boolean chosen(Database database) {
        String chosen = System.getProperty("idempotent.test.databases", "").strip();
        return chosen.isEmpty() || List.of(chosen.toUpperCase(java.util.Locale.ROOT).split("\\s*,\\s*"))
                .contains(database.name());
    }

    /** The JDBC URL of the shared embedded PostgreSQL server, starting it on first use. */
    public static synchronized String postgresUrl() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start embedded PostgreSQL", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException ignored) {
                    // the JVM is exiting
                }
            }));
        }
        return postgres.getJdbcUrl("postgres", "postgres") + "&options=-c%20TimeZone%3D" + SESSION_TIME_ZONE;
    }

    private static TestTemplateInvocationContext invocation(Database database) {
        return new TestTemplateInvocationContext() {
            private TestDatabase db;

            @Override
            public String getDisplayName(int invocationIndex) {
                return database.name();
            }

            @Override
            public List<Extension> getAdditionalExtensions() {
                ParameterResolver resolver = new ParameterResolver() {
                    @Override
                    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
                        return p.getParameter().getType() == TestDatabase.class;
                    }

                    @Override
                    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
                        if (db == null) {
                            db = open(database);
                        }
                        return db;
                    }
                };
                AfterEachCallback cleanup = e -> {
                    if (db != null) {
                        db.cleanUp();
                        db = null;
                    }
                };
                return List.of(resolver, cleanup);
            }
        };
    }

    private static TestDatabase open(Database database) {
        return switch (database) {
            case H2 -> new TestDatabase(database, "jdbc:h2:mem:t" + UUID.randomUUID().toString().replace("-", "")
                    + ";DB_CLOSE_DELAY=-1;INIT=SET TIME ZONE '" + SESSION_TIME_ZONE + "'", "sa", "");
            case POSTGRESQL -> new TestDatabase(database, postgresUrl(), "postgres", "postgres");
        };
    }
}
