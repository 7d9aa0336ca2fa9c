package io.idempotent.cli;

import picocli.CommandLine.Option;

/** {@code --json}: output for scripts instead of text tables for people. */
final class OutputOptions {

    @Option(names = "--json", description = "Print JSON for scripts instead of text tables.")
    boolean json;
}
