package io.idempotent.cli;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.internal.RuntimeAccess;
import io.idempotent.runtime.internal.store.Dialect;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code schema print|validate|create}: the store's tables. */
@Command(name = "schema", description = "print: the migration for the store's database (for Flyway or Liquibase);"
        + " validate: check the tables; create: create them if missing.")
final class SchemaCommand implements Callable<Integer> {

    enum Action { print, validate, create }

    @Parameters(index = "0", paramLabel = "ACTION", description = "print, validate or create.")
    Action action;

    @Mixin
    StoreOptions store;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        // As every other command: a password in --store-url is a usage error (exit 2), never
        // passed on to the driver, whose errors could repeat it.
        store.checkOptions();
        if (action == Action.print) {
            out.print(migration());
            out.flush();
            return ExitCode.OK;
        }
        SchemaMode mode = action == Action.create ? SchemaMode.CREATE : SchemaMode.VALIDATE;
        try (IdempotentRuntime runtime = store.open(mode)) {
            RuntimeAccess.engine(runtime).stores().get(store.name(), "operator").ensureSchema();
        } catch (StoreUnavailableException e) {
            throw store.explained(e);
        }
        out.println(TerminalText.escape("Schema of store " + store.name() + " (" + store.describe() + "): "
                + (action == Action.create ? "present (created what was missing)" : "valid")));
        return ExitCode.OK;
    }

    private String migration() {
        Dialect dialect = Dialect.detect(store.jdbcUrl());
        if (dialect == null) {
            throw new IllegalArgumentException("unsupported store URL " + store.describe()
                    + "; supported are jdbc:postgresql: and jdbc:h2:");
        }
        // Every migration, oldest first, as Flyway or Liquibase would apply them.
        StringBuilder all = new StringBuilder();
        for (Dialect.Migration migration : dialect.migrations()) {
            String resource = migration.resource();
            try (InputStream in = Dialect.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("the runtime jar has no " + resource);
                }
                all.append(all.length() == 0 ? "" : "\n-- " + resource.substring(resource.lastIndexOf('/') + 1)
                        + "\n\n").append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + resource, e);
            }
        }
        return all.toString();
    }
}
