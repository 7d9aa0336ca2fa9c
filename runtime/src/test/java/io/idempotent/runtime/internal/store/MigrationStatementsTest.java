package io.idempotent.runtime.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How the runtime splits a migration into statements when it creates the schema itself. */
class MigrationStatementsTest {

    @Test
    void aSemicolonInsideADollarQuotedBodyAStringOrACommentDoesNotEndTheStatement() {
        String ddl = "-- a comment; with a semicolon\nCREATE TABLE a (x INT DEFAULT length('a;b'));\n"
                + "CREATE FUNCTION f() RETURNS INT LANGUAGE plpgsql AS $body$\nBEGIN\n  RETURN 1;\nEND\n$body$;\n"
                + "CREATE FUNCTION g() RETURNS INT LANGUAGE sql AS $$ SELECT 2; $$;\n"
                + "CREATE INDEX i ON a (x)";
        List<String> statements = StoreSchema.statements(ddl).stream().map(String::strip).toList();
        assertThat(statements).containsExactly("CREATE TABLE a (x INT DEFAULT length('a;b'))",
                "CREATE FUNCTION f() RETURNS INT LANGUAGE plpgsql AS $body$\nBEGIN\n  RETURN 1;\nEND\n$body$",
                "CREATE FUNCTION g() RETURNS INT LANGUAGE sql AS $$ SELECT 2; $$", "CREATE INDEX i ON a (x)");
    }

    @Test
    void eachMigrationSplitsIntoCreateStatementsWithoutComments() throws Exception {
        for (Dialect dialect : List.<Dialect>of(new PostgresDialect(), new H2Dialect())) {
            String ddl;
            try (var in = getClass().getClassLoader().getResourceAsStream(dialect.migrationResource())) {
                ddl = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
            List<String> statements = StoreSchema.statements(ddl);
            assertThat(statements).as(dialect.name()).hasSize(dialect instanceof H2Dialect ? 5 : 6)
                    .allSatisfy(s -> assertThat(s).startsWith("CREATE ").doesNotContain("--"));
            assertThat(statements).filteredOn(s -> s.startsWith("CREATE OR REPLACE VIEW tool_operation_attempts"))
                    .as(dialect.name()).hasSize(1);
        }
    }
}
