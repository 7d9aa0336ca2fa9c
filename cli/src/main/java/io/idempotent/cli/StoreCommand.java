package io.idempotent.cli;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.Operations;
import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreUnavailableException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A command that works on one store: opens it, runs, closes it, and exits with the command's code. */
abstract class StoreCommand implements Callable<Integer> {

    @Mixin
    StoreOptions store;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public final Integer call() {
        checkOptions();
        try (IdempotentRuntime runtime = store.open(schemaMode())) {
            return run(runtime, runtime.operations(), spec.commandLine().getOut());
        } catch (StoreUnavailableException e) {
            throw store.explained(e);
        }
    }

    /**
     * Refuses option values the command cannot use ({@link UsageException}), before the store is
     * opened: a wrong command line is exit code 2 whatever the store's state.
     */
    void checkOptions() {
        store.checkOptions();
    }

    /** How the command treats the schema: validate unless it creates it. */
    SchemaMode schemaMode() {
        return SchemaMode.VALIDATE;
    }

    abstract int run(IdempotentRuntime runtime, Operations operations, PrintWriter out);
}
