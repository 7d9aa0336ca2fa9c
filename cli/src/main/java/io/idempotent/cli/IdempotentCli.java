package io.idempotent.cli;

import io.idempotent.runtime.PayloadNotSerializableException;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code idempotent-cli}: the operator's command line over an operation store. See
 * {@code --help}, and docs/operating.md.
 */
// INHERIT: every command answers --help (its error lines point there) and lists the exit codes.
@Command(name = "idempotent-cli", mixinStandardHelpOptions = true, versionProvider = IdempotentCli.Version.class,
        scope = CommandLine.ScopeType.INHERIT,
        description = "Reviews, settles and approves the operations of idempotent tools in their store.",
        subcommands = {ShowCommand.class, PendingCommand.class, SettleCommand.class, ApprovalsCommand.class,
            DecideCommand.Approve.class, DecideCommand.Deny.class, StatsCommand.class, PurgeCommand.class,
            SchemaCommand.class, ServeCommand.class, OutboxCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done",
            "1:refused (unknown operation, wrong state, result that does not fit, payload hash that is not the"
                + " stored one); nothing changed",
            "2:wrong command line",
            "3:store unreachable, misconfigured or without its schema",
            "4:internal error"})
public final class IdempotentCli {

    /**
     * The runtime announces its stores at INFO, which suits an application's log but not a
     * command's output: the command line shows warnings and errors only. Held here, since
     * java.util.logging keeps loggers weakly.
     */
    private static final java.util.logging.Logger RUNTIME_LOG = java.util.logging.Logger.getLogger("io.idempotent");
    /** Every settlement and every approval decision leaves its INFO line, whatever the level of the rest. */
    private static final java.util.logging.Logger SETTLEMENT_LOG =
            java.util.logging.Logger.getLogger(Settlements.LOG_NAME);
    private static final java.util.logging.Logger APPROVAL_LOG =
            java.util.logging.Logger.getLogger(ApprovalDecisions.LOG_NAME);

    private IdempotentCli() {
    }

    /** Runs one command and exits with its {@link ExitCode}. */
    public static void main(String[] args) {
        RUNTIME_LOG.setLevel(java.util.logging.Level.WARNING);
        SETTLEMENT_LOG.setLevel(java.util.logging.Level.INFO);
        APPROVAL_LOG.setLevel(java.util.logging.Level.INFO);
        System.exit(execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs one command, writing to {@code out} and {@code err}; returns its exit code. */
    static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new IdempotentCli());
        cli.setOut(out);
        cli.setErr(err);
        // A wrong command line is one line too, like every other error; --help shows the usage.
        cli.setParameterExceptionHandler((e, arguments) -> {
            String suggestion = e instanceof CommandLine.UnmatchedArgumentException unmatched
                    && !unmatched.getSuggestions().isEmpty()
                            ? "; did you mean " + String.join(" or ", unmatched.getSuggestions()) + "?" : "";
            e.getCommandLine().getErr().println("error: " + ErrorLine.of(e) + suggestion + " (see "
                    + e.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
            return ExitCode.USAGE;
        });
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("error: " + ErrorLine.of(e));
            return exitCode(e);
        });
        return cli.execute(args);
    }

    private static int exitCode(Exception e) {
        if (e instanceof RefusedException || e instanceof IllegalStateException
                || e instanceof IllegalArgumentException || e instanceof PayloadNotSerializableException) {
            return ExitCode.REFUSED;
        }
        if (e instanceof StoreUnavailableException || e instanceof StoreConfigurationException) {
            return ExitCode.STORE;
        }
        if (e instanceof CommandLine.ParameterException || e instanceof UsageException) {
            return ExitCode.USAGE;
        }
        return ExitCode.INTERNAL;
    }

    /** The version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = IdempotentCli.class.getPackage().getImplementationVersion();
            return new String[] {"idempotent-cli " + (version == null ? "(development build)" : version)};
        }
    }
}
