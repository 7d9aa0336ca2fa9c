package io.idempotent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every command answers {@code --help} with its usage, as each error line tells the operator to
 * ask ("see idempotent-cli approve --help"), without opening a store.
 */
class HelpTest {

    @ParameterizedTest(name = "{0} --help")
    @CsvSource(delimiter = '|', textBlock = """
            approve    | --payload-hash=HASH
            deny       | --payload-hash=HASH
            approvals  | --offset=N
            pending    | --older-than=DURATION
            show       | --attempts-offset=N
            settle applied | --result-file=FILE
            outbox     | --limit=N
            """)
    void everyCommandAnswersHelpWithItsUsage(String command, String option) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = (command + " --help").split(" ");
        int code = IdempotentCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
        assertThat(code).as(err.toString()).isEqualTo(ExitCode.OK);
        assertThat(out.toString()).contains("Usage: idempotent-cli " + command, option, "Exit codes:");
    }
}
