package io.idempotent.cli;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.Operations;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code settle applied|not-applied TOOL KEY}: an operator's decision on an uncertain operation. */
@Command(name = "settle", description = "Settles an operation awaiting reconciliation, after checking the downstream.",
        subcommands = {SettleCommand.Applied.class, SettleCommand.NotApplied.class})
final class SettleCommand {

    /** Where these settlements are made, for their log line. */
    static final String CHANNEL = "command line";

    private SettleCommand() {
    }

    /** {@code settle applied TOOL KEY --result-file F --operator NAME}. */
    @Command(name = "applied", description = "The effect did happen: store the result the tool would have returned;"
            + " duplicates then replay it.")
    static final class Applied extends StoreCommand {

        @Parameters(index = "0", paramLabel = "TOOL")
        String tool;

        @Parameters(index = "1", paramLabel = "KEY")
        String key;

        @Option(names = "--result-file", paramLabel = "FILE",
                description = "The result as JSON, as the tool would have returned it (omit for a void tool).")
        Path resultFile;

        @Option(names = "--operator", required = true, paramLabel = "NAME", description = "Who decided (attempt log).")
        String operator;

        @Option(names = "--app-classpath", required = true, paramLabel = "PATH",
                description = "The application's jars or classes (with META-INF/idempotent/tools.json), to check"
                        + " the result against the tool's return type.")
        String appClassPath;

        @Override
        int run(IdempotentRuntime runtime, Operations operations, PrintWriter out) {
            String json = null;
            if (resultFile != null) {
                try {
                    json = Files.readString(resultFile, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new RefusedException("cannot read --result-file " + resultFile + ": " + e.getMessage(), e);
                }
            }
            ToolCatalog catalog = ToolCatalog.of(appClassPath);
            new Settlements(operations, store.name(), CHANNEL).applied(tool, key, catalog.resultType(tool), json,
                    operator);
            out.println(TerminalText.escape("Settled " + tool + " " + key + " as applied by " + operator
                    + "; duplicates now replay the result."));
            return ExitCode.OK;
        }
    }

    /** {@code settle not-applied TOOL KEY --reason TEXT --operator NAME}. */
    @Command(name = "not-applied", description = "The effect did not happen: the next call with the key runs the body"
            + " again.")
    static final class NotApplied extends StoreCommand {

        @Parameters(index = "0", paramLabel = "TOOL")
        String tool;

        @Parameters(index = "1", paramLabel = "KEY")
        String key;

        @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "What the downstream showed.")
        String reason;

        @Option(names = "--operator", required = true, paramLabel = "NAME", description = "Who decided (attempt log).")
        String operator;

        @Override
        int run(IdempotentRuntime runtime, Operations operations, PrintWriter out) {
            new Settlements(operations, store.name(), CHANNEL).notApplied(tool, key, reason, operator);
            out.println(TerminalText.escape("Settled " + tool + " " + key + " as not applied by " + operator
                    + "; the next call with the key runs the tool again."));
            return ExitCode.OK;
        }
    }
}
