package io.idempotent.cli;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.Operations;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code approve} and {@code deny TOOL KEY --payload-hash HASH --operator NAME [--reason TEXT]}: an
 * operator's decision on an operation that awaits approval, bound to the payload the operator saw.
 */
abstract class DecideCommand extends StoreCommand {

    /** Where these decisions are made, for their log line. */
    static final String CHANNEL = "command line";

    @Parameters(index = "0", paramLabel = "TOOL", description = "The tool's name (as in the approval queue).")
    String tool;

    @Parameters(index = "1", paramLabel = "KEY", description = "The operation key.")
    String key;

    @Option(names = "--payload-hash", required = true, paramLabel = "HASH",
            description = "The payload hash that the approval queue showed with the payload you decided on (64 hex"
                    + " digits); refused if the stored one differs.")
    String payloadHash;

    @Option(names = "--operator", required = true, paramLabel = "NAME", description = "Who decided (attempt log).")
    String operator;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why (attempt log).")
    String reason;

    @Override
    void checkOptions() {
        super.checkOptions();
        String problem = ApprovalDecisions.hashProblem(payloadHash);
        if (problem != null) {
            throw new UsageException("--payload-hash refused: " + problem);
        }
    }

    abstract ApprovalDecisions.Decision decision();

    /** What happens next, for the line that confirms the decision. */
    abstract String next();

    @Override
    final int run(IdempotentRuntime runtime, Operations operations, PrintWriter out) {
        new ApprovalDecisions(runtime.approvals(), store.name(), CHANNEL).decide(decision(), tool, key, payloadHash,
                operator, reason);
        out.println(TerminalText.escape(capitalised(decision().done()) + " " + tool + " " + key + " by "
                + OperatorName.require(operator) + "; " + next()));
        return ExitCode.OK;
    }

    private static String capitalised(String word) {
        return Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }

    /** {@code approve}. */
    @Command(name = "approve", description = "Grants an operation that awaits approval: the next call with the same"
            + " key and arguments runs the tool once, within the tool's approval validity.")
    static final class Approve extends DecideCommand {

        @Override
        ApprovalDecisions.Decision decision() {
            return ApprovalDecisions.Decision.GRANT;
        }

        @Override
        String next() {
            return "the next call with the same key and arguments runs the tool once.";
        }
    }

    /** {@code deny}. */
    @Command(name = "deny", description = "Denies an operation that awaits approval: a final outcome, every call with"
            + " the key is answered with the denial.")
    static final class Deny extends DecideCommand {

        @Override
        ApprovalDecisions.Decision decision() {
            return ApprovalDecisions.Decision.DENY;
        }

        @Override
        String next() {
            return "every call with the key is answered with the denial.";
        }
    }
}
