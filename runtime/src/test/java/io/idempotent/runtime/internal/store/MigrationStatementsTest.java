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
        List<String> statements = JdbcOperationStore.statements(ddl).stream().map(String::strip).toList();
        assertThat(statements).containsExactly("CREATE TABLE a (x INT DEFAULT length('a;b'))",
                "CREATE FUNCTION f() RETURNS INT LANGUAGE plpgsql AS $body$\nBEGIN\n  RETURN 1;\nEND\n$body$",
                "CREATE FUNCTION g() RETURNS INT LANGUAGE sql AS $$ SELECT 2; $$", "CREATE INDEX i ON a (x)");
    }

    @Test
    void thePostgresqlMigrationEndsItsClaimFunctionAsOneStatement() throws Exception {
        String ddl;
        try (var in = getClass().getClassLoader().getResourceAsStream(new PostgresDialect().migrationResource())) {
            ddl = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        List<String> functions = JdbcOperationStore.statements(ddl).stream()
                .filter(s -> s.contains("CREATE OR REPLACE FUNCTION")).toList();
        assertThat(functions).hasSize(1);
        assertThat(functions.get(0)).startsWith("CREATE OR REPLACE FUNCTION idempotent_claim(").endsWith("$claim$")
                .doesNotContain("--");
    }
}
