package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.testing.SharedStoreJvm;
import io.idempotent.runtime.testing.SharedStoreJvm.Answer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Frameworks' dependency management brings H2 2.3.232 to one application and 2.4.240 to another;
 * started in one directory, they share the embedded store's file. A JVM on each version shares
 * it at once (each may serve it to the other), and a JVM on 2.3.232 opens, reads and writes a
 * file that 2.4.240 wrote last, alone: both write the same file format. The other version's jar
 * is copied by the build (runtime/pom.xml, {@code h2.other.version}).
 */
class MixedH2VersionsTest {

    private static final Map<String, String> SETTINGS = Map.of("store.connect.timeout", "PT10S");
    private static final Duration LEASE = Duration.ofSeconds(5);
    private static final int IDS = 12;

    @Test
    void aJvmOnH2TwoFourAndOneOnTwoThreeShareTheFileAndTwoThreeOpensAFileTwoFourWroteAlone(@TempDir Path dir)
            throws Exception {
        Path database = dir.resolve("store").resolve("operations");
        Path effects = dir.resolve("effects.txt");
        String otherVersion = otherH2ClassPath();
        List<SharedStoreJvm> jvms = new ArrayList<>();
        try {
            // 2.4.240 alone creates the file and works every id, then closes it.
            SharedStoreJvm newer = SharedStoreJvm.start("h2-2.4.240-alone", database, SETTINGS, effects, IDS, 2, LEASE,
                    0, false, otherVersion);
            jvms.add(newer);
            newer.await(l -> l.equals("finished"), Duration.ofSeconds(60));
            assertThat(newer.lines()).as("the JVM ran H2 2.4.240").contains("h2 4.240");

            // 2.3.232 opens the file 2.4.240 wrote last: every id replays the stored result, no body runs again.
            SharedStoreJvm older = SharedStoreJvm.start("h2-2.3.232-after", database, SETTINGS, effects, IDS, 2,
                    LEASE, 0, false, null);
            jvms.add(older);
            older.await(l -> l.equals("finished"), Duration.ofSeconds(60));
            assertThat(older.lines()).as("the JVM ran H2 2.3.232").contains("h2 3.232");
            assertThat(results(older)).isEqualTo(results(newer));

            // Both at once, on new ids: whichever serves the file, the other reaches it through its server.
            Path shared = dir.resolve("shared").resolve("operations");
            Path sharedEffects = dir.resolve("shared-effects.txt");
            SharedStoreJvm owner = SharedStoreJvm.start("h2-2.4.240-owner", shared, SETTINGS, sharedEffects, IDS, 2,
                    LEASE, 20, true, otherVersion);
            jvms.add(owner);
            SharedStoreJvm guest = SharedStoreJvm.start("h2-2.3.232-guest", shared, SETTINGS, sharedEffects, IDS, 2,
                    LEASE, 20, true, null);
            jvms.add(guest);
            owner.go();
            guest.go();
            owner.await(l -> l.equals("finished"), Duration.ofSeconds(60));
            guest.await(l -> l.equals("finished"), Duration.ofSeconds(60));

            List<Answer> all = new ArrayList<>(owner.answers());
            all.addAll(guest.answers());
            all.addAll(newer.answers());
            all.addAll(older.answers());
            assertThat(all).as("no store refused a file of the other version")
                    .noneMatch(a -> a.kind().equals("StoreConfigurationException"))
                    .allMatch(a -> a.flags().equals("-"));
            assertThat(effectsPerId(effects)).as("alone, then after: one effect per id").allSatisfy((id, n) ->
                    assertThat(n).isEqualTo(1)).hasSize(IDS);
            assertThat(effectsPerId(sharedEffects)).as("shared: one effect per id").allSatisfy((id, n) ->
                    assertThat(n).isEqualTo(1)).hasSize(IDS);
            Map<String, Set<String>> shareResults = new TreeMap<>();
            for (Answer a : all) {
                if (a.isResult() && (a.jvm().equals(owner.name()) || a.jvm().equals(guest.name()))) {
                    shareResults.computeIfAbsent(a.id(), k -> new java.util.TreeSet<>()).add(a.kind());
                }
            }
            assertThat(shareResults.values()).as("one stored result per id " + shareResults)
                    .allMatch(r -> r.size() == 1);
        } finally {
            for (SharedStoreJvm jvm : jvms) {
                jvm.close();
            }
        }
    }

    /** This JVM's class path with the other H2 version's jar in place of the project's. */
    private static String otherH2ClassPath() {
        String jar = System.getProperty("other.h2.jar");
        assertThat(jar).as("other.h2.jar (set by runtime/pom.xml)").isNotNull();
        assertThat(Path.of(jar)).exists();
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            entries.add(entry.contains("com/h2database/h2/") ? jar : entry);
        }
        assertThat(entries).contains(jar);
        return String.join(File.pathSeparator, entries);
    }

    private static Map<String, String> results(SharedStoreJvm jvm) {
        return jvm.answers().stream().filter(Answer::isResult).filter(a -> a.id().startsWith("op-"))
                .collect(Collectors.toMap(Answer::id, Answer::kind, (a, b) -> a, TreeMap::new));
    }

    private static Map<String, Integer> effectsPerId(Path effects) throws Exception {
        Map<String, Integer> perId = new TreeMap<>();
        for (String line : Files.readAllLines(effects)) {
            String id = line.split(" ")[0];
            if (id.startsWith("op-")) {
                perId.merge(id, 1, Integer::sum);
            }
        }
        return perId;
    }
}
