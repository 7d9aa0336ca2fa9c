package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.RuntimeConfiguration;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.EmbeddedStoreProcess;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded H2 store against another user of the same host: its credentials are never H2's
 * empty default, its files are its owner's only, and its secret is used only when it is safe.
 * H2-only by nature: a PostgreSQL store has no files of ours. The tests run as root, whose reads
 * pass any mode, so they assert the modes themselves and the refusals, not another user's read.
 */
class EmbeddedStoreSecurityTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842");

    // Item 2: a user in the URL is not a password.

    @Test
    void aUserInTheUrlWithoutAPasswordGetsTheGeneratedSecretNotAnEmptyPassword(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("operations") + ";AUTO_SERVER=TRUE;USER=app";
        try (IdempotentRuntime runtime = configuredBy(url, Map.of())) {
            assertThat(runtime.call(REFUND, "refund:1", PAYLOAD, String.class, () -> "done")).isEqualTo("done");
        }
        assertStoreNeedsTheSecret(dir, "app");
    }

    @Test
    void aStoreUserWithoutAPasswordGetsTheGeneratedSecretToo(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("operations") + ";AUTO_SERVER=TRUE;USER=app";
        try (IdempotentRuntime runtime = configuredBy(url, Map.of("idempotent.store.user", "app"))) {
            assertThat(runtime.call(REFUND, "refund:1", PAYLOAD, String.class, () -> "done")).isEqualTo("done");
        }
        assertStoreNeedsTheSecret(dir, "app");
    }

    private static void assertStoreNeedsTheSecret(Path dir, String user) throws Exception {
        String bare = "jdbc:h2:file:" + dir.resolve("operations");
        Path secret = dir.resolve("operations.secret");
        assertThat(secret).exists();
        SQLException refused = null;
        try {
            DriverManager.getConnection(bare, user, "").close();
        } catch (SQLException e) {
            refused = e;
        }
        assertThat((Throwable) refused).as("connecting as " + user + " with an empty password").isNotNull();
        assertThat(refused.getErrorCode()).isEqualTo(28000);
        DriverManager.getConnection(bare, user, Files.readString(secret).strip()).close();
    }

    // Item 3: the store's files are its owner's only.

    @Test
    void aNewStoreWithAPasswordOfItsOwnIsCreatedOwnerOnly(@TempDir Path dir) throws Exception {
        Path storeDir = dir.resolve("new").resolve("store");
        String url = "jdbc:h2:file:" + storeDir.resolve("operations") + ";AUTO_SERVER=TRUE";
        try (IdempotentRuntime runtime = configuredBy(url, Map.of("idempotent.store.password", "pw-of-its-own"))) {
            runtime.call(REFUND, "refund:1", PAYLOAD, String.class, () -> "done");
            assertThat(mode(storeDir)).isEqualTo("rwx------");
            assertThat(mode(storeDir.resolve("operations.mv.db"))).isEqualTo("rw-------");
        }
    }

    @Test
    void anExistingStoreWhoseFilesOthersCanReadIsRestrictedWhenItOpens(@TempDir Path dir) throws Exception {
        Path storeDir = Files.createDirectories(dir.resolve("ops"));
        String url = "jdbc:h2:file:" + storeDir.resolve("operations") + ";AUTO_SERVER=TRUE";
        try (IdempotentRuntime runtime = configuredBy(url, Map.of())) {
            runtime.call(REFUND, "refund:1", PAYLOAD, String.class, () -> "done");
        }
        // As an earlier version, a copy or a umask of 022 left them.
        Files.writeString(storeDir.resolve("operations.trace.db"), "an earlier trace\n");
        for (String file : new String[] {"operations.mv.db", "operations.trace.db"}) {
            Files.setPosixFilePermissions(storeDir.resolve(file), PosixFilePermissions.fromString("rw-r--r--"));
        }
        Files.setPosixFilePermissions(storeDir, PosixFilePermissions.fromString("rwxr-xr-x"));

        try (IdempotentRuntime runtime = configuredBy(url, Map.of())) {
            assertThat(runtime.call(REFUND, "refund:1", PAYLOAD, String.class, () -> "again")).isEqualTo("done");
            assertThat(mode(storeDir)).as("the store's directory").isEqualTo("rwx------");
            assertThat(mode(storeDir.resolve("operations.mv.db"))).isEqualTo("rw-------");
            assertThat(mode(storeDir.resolve("operations.trace.db"))).isEqualTo("rw-------");
            assertThat(mode(storeDir.resolve("operations.lock.db"))).as("the lock of the JVM that serves it")
                    .isEqualTo("rw-------");
        }
    }

    @Test
    void aDirectoryTheStoreSharesWithOtherFilesKeepsItsModeAndTheStoresFilesAreOwnerOnly(@TempDir Path dir)
            throws Exception {
        // jdbc:h2:file:./ops puts the store in the working directory: a project's, or a web root.
        Path shared = Files.createDirectories(dir.resolve("app"));
        Files.writeString(shared.resolve("index.html"), "<p>served to others</p>");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
        String url = "jdbc:h2:file:" + shared.resolve("ops") + ";AUTO_SERVER=TRUE";

        try (IdempotentRuntime runtime = configuredBy(url, Map.of())) {
            assertThat(runtime.call(REFUND, "refund:1", PAYLOAD, String.class, () -> "done")).isEqualTo("done");
            assertThat(mode(shared)).as("a directory shared with other files is not the store's to restrict")
                    .isEqualTo("rwxr-xr-x");
            assertThat(mode(shared.resolve("ops.mv.db"))).isEqualTo("rw-------");
            assertThat(mode(shared.resolve("ops.lock.db"))).isEqualTo("rw-------");
        }
    }

    @Test
    void aStoreDirectoryOtherUsersMayWriteToIsRefusedNamingItAndTheFix(@TempDir Path dir) throws Exception {
        for (String mode : new String[] {"rwxrwxr-x", "rwxr-xrwx", "rwxrwxrwx"}) {
            Path storeDir = Files.createDirectories(dir.resolve("shared-" + mode.replace('-', '_')));
            Files.setPosixFilePermissions(storeDir, PosixFilePermissions.fromString(mode));
            String url = "jdbc:h2:file:" + storeDir.resolve("operations") + ";AUTO_SERVER=TRUE";

            Throwable refused = catchThrowable(() -> configuredBy(url, Map.of()).close());

            assertThat(refused).as(mode).isInstanceOf(StoreConfigurationException.class)
                    .hasMessageContaining("store default").hasMessageContaining(storeDir.toString())
                    .hasMessageContaining("other users may write").hasMessageContaining("chmod 700 " + storeDir);
            assertThat(storeDir.resolve("operations.mv.db")).as(mode + ": nothing created").doesNotExist();
            assertThat(storeDir.resolve("operations.secret")).as(mode + ": no secret written").doesNotExist();
            assertThat(mode(storeDir)).as("left as it was").isEqualTo(mode);
        }
    }

    @Test
    void aStoreDirectoryOwnedByAnotherUserIsRefusedAndNoToolBodyRuns(@TempDir Path dir) throws Exception {
        // Created in advance by another local user (a shared path, a pre-made ~/.idempotent), its
        // group and other write taken away: that user can still replace the files or chmod it back.
        Path storeDir = Files.createDirectories(dir.resolve("planted"));
        Files.setPosixFilePermissions(storeDir, PosixFilePermissions.fromString("rwx------"));
        UserPrincipal nobody = nobody(storeDir);
        Files.setOwner(storeDir, nobody);
        String url = "jdbc:h2:file:" + storeDir.resolve("operations") + ";AUTO_SERVER=TRUE";
        FakeProvider provider = new FakeProvider();

        Throwable refused = catchThrowable(() -> {
            try (IdempotentRuntime runtime = configuredBy(url, Map.of())) {
                runtime.call(REFUND, "refund:1", PAYLOAD, String.class, () -> provider.apply("refund:1", "refund"));
            }
        });

        assertThat(refused).isInstanceOf(StoreConfigurationException.class).hasMessageContaining("store default")
                .hasMessageContaining("directory " + storeDir).hasMessageContaining("owned by nobody")
                .hasMessageContaining("not by " + runningUser() + ", the user running this JVM")
                .hasMessageContaining("chown " + runningUser() + " " + storeDir);
        assertThat(provider.invocations()).as("tool bodies run").isZero();
        assertThat(storeDir.resolve("operations.mv.db")).as("nothing created").doesNotExist();
        assertThat(storeDir.resolve("operations.secret")).as("no secret written").doesNotExist();
        assertThat(Files.getOwner(storeDir)).as("left as it was").isEqualTo(nobody);
        assertThat(mode(storeDir)).as("left as it was").isEqualTo("rwx------");

        // The same directory, once its owner is the JVM's user, opens as before.
        Files.setOwner(storeDir, Files.getOwner(dir));
        try (IdempotentRuntime runtime = configuredBy(url, Map.of())) {
            assertThat(runtime.call(REFUND, "refund:1", PAYLOAD, String.class,
                    () -> provider.apply("refund:1", "refund"))).isEqualTo("done:refund");
        }
        assertThat(provider.effects()).isEqualTo(1);
    }

    @Test
    void aStoreFileOwnedByAnotherUserIsRefusedAndNoToolBodyRuns(@TempDir Path dir) throws Exception {
        for (String file : new String[] {"operations.mv.db", "operations.trace.db"}) {
            Path storeDir = Files.createDirectories(dir.resolve(file.replace('.', '_')));
            String url = "jdbc:h2:file:" + storeDir.resolve("operations") + ";AUTO_SERVER=TRUE";
            // A password of its own: no secret is read, so only the files' check can refuse.
            Map<String, String> password = Map.of("idempotent.store.password", "pw-of-its-own");
            FakeProvider provider = new FakeProvider();
            try (IdempotentRuntime runtime = configuredBy(url, password)) {
                runtime.call(REFUND, "refund:1", PAYLOAD, String.class, () -> provider.apply("refund:1", "refund"));
            }
            Path foreign = storeDir.resolve(file);
            if (!Files.exists(foreign)) {
                Files.writeString(foreign, "a trace another user left\n");
                Files.setPosixFilePermissions(foreign, PosixFilePermissions.fromString("rw-------"));
            }
            Files.setOwner(foreign, nobody(foreign));

            Throwable refused = catchThrowable(() -> {
                try (IdempotentRuntime runtime = configuredBy(url, password)) {
                    runtime.call(REFUND, "refund:2", PAYLOAD, String.class,
                            () -> provider.apply("refund:2", "refund"));
                }
            });

            assertThat(refused).as(file).isInstanceOf(StoreConfigurationException.class)
                    .hasMessageContaining("store default").hasMessageContaining(foreign.toString())
                    .hasMessageContaining("owned by nobody").hasMessageContaining("not by " + runningUser())
                    .hasMessageContaining("chown " + runningUser() + " " + foreign)
                    .hasMessageNotContaining("pw-of-its-own");
            assertThat(provider.invocations()).as(file + ": tool bodies run").isEqualTo(1);
            assertThat(provider.applied("refund:2")).isFalse();
        }
    }

    // Item 4: a secret is used only when it is safe.

    @Test
    void aSecretOtherUsersMayReadOrWriteIsRefusedNamingItAndTheFix(@TempDir Path dir) throws Exception {
        for (String mode : new String[] {"rw-r-----", "rw----r--", "rw--w----", "rw-----w-"}) {
            Path storeDir = Files.createDirectories(dir.resolve("secret-" + mode.replace('-', '_')));
            String url = "jdbc:h2:file:" + storeDir.resolve("operations") + ";AUTO_SERVER=TRUE";
            configuredBy(url, Map.of()).close();
            Path secret = storeDir.resolve("operations.secret");
            String content = Files.readString(secret).strip();
            Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString(mode));

            Throwable refused = catchThrowable(() -> configuredBy(url, Map.of()).close());

            assertThat(refused).as(mode).isInstanceOf(StoreConfigurationException.class)
                    .hasMessageContaining("store default").hasMessageContaining(secret.toString())
                    .hasMessageContaining("other users").hasMessageContaining("chmod 600 " + secret)
                    .hasMessageNotContaining(content);
            assertThat(mode(secret)).as("left as it was, for its owner to judge").isEqualTo(mode);
        }
    }

    @Test
    void aSecretOwnedByAnotherUserIsRefused(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("operations") + ";AUTO_SERVER=TRUE";
        configuredBy(url, Map.of()).close();
        Path secret = dir.resolve("operations.secret");
        UserPrincipal nobody = secret.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        Files.setOwner(secret, nobody);

        Throwable refused = catchThrowable(() -> configuredBy(url, Map.of()).close());

        assertThat(refused).isInstanceOf(StoreConfigurationException.class).hasMessageContaining(secret.toString())
                .hasMessageContaining("owned by nobody").hasMessageContaining("not by " + System.getProperty("user.name"));
    }

    @Test
    void aPlantedSecretIsNeverRunAsSqlAndIsRefusedAsNotTheGeneratedFormat(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("operations") + ";AUTO_SERVER=TRUE";
        // A store an earlier version created with H2's empty password, and a secret planted beside it.
        DriverManager.getConnection(url, "sa", "").close();
        Path secret = dir.resolve("operations.secret");
        Files.writeString(secret, "'; CREATE TABLE PWNED(ID INT) --\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));

        Throwable refused = catchThrowable(() -> {
            try (IdempotentRuntime runtime = configuredBy(url, Map.of())) {
                runtime.call(REFUND, "refund:1", PAYLOAD, String.class, () -> "done");
            }
        });

        assertThat(refused).isInstanceOf(StoreConfigurationException.class).hasMessageContaining(secret.toString())
                .hasMessageContaining("not a secret this library generated").hasMessageNotContaining("PWNED");
        try (Connection c = DriverManager.getConnection(url, "sa", "");
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES"
                        + " WHERE TABLE_NAME = 'PWNED'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).as("tables named PWNED").isZero();
        }
    }

    // Item 12: the AUTO_SERVER that shares the file with other JVMs listens on loopback only.

    @Test
    void theAutoServerOfTheEmbeddedStoreListensOnLoopbackOnly(@TempDir Path dir) throws Exception {
        try (EmbeddedStoreProcess store = EmbeddedStoreProcess.open(dir.resolve("operations"), false)) {
            Properties lock = new Properties();
            try (InputStream in = Files.newInputStream(dir.resolve("operations.lock.db"))) {
                lock.load(in);
            }
            String server = lock.getProperty("server");
            assertThat(server).as("the address the lock file gives other JVMs").isNotNull();
            int port = Integer.parseInt(server.substring(server.lastIndexOf(':') + 1));
            String host = server.substring(0, server.lastIndexOf(':'));
            assertThat(InetAddress.getByName(host).isLoopbackAddress()).as(server).isTrue();
            assertThat(connects(InetAddress.getLoopbackAddress(), port)).as("it serves on loopback").isTrue();
            for (InetAddress address : nonLoopbackAddresses()) {
                assertThat(connects(address, port)).as("connecting through " + address).isFalse();
            }
            assertThat(store.output()).noneMatch(line -> line.contains("h2.bindAddress"));
        }
    }

    @Test
    void whenH2CannotBeKeptOnLoopbackTheRuntimeSaysSoAndHowToFixIt(@TempDir Path dir) throws Exception {
        // H2 used before the store opened (its settings are read once), or set to listen everywhere.
        try (EmbeddedStoreProcess store = EmbeddedStoreProcess.open(dir.resolve("first").resolve("operations"),
                true)) {
            assertThat(String.join("\n", store.output())).contains("WARNING").contains("every network interface")
                    .contains("-Dh2.bindAddress=127.0.0.1");
        }
        try (EmbeddedStoreProcess store = EmbeddedStoreProcess.open(dir.resolve("set").resolve("operations"),
                false, "-Dh2.bindAddress=0.0.0.0")) {
            assertThat(String.join("\n", store.output())).contains("WARNING").contains("0.0.0.0")
                    .contains("-Dh2.bindAddress=127.0.0.1");
        }
    }

    private static List<InetAddress> nonLoopbackAddresses() throws Exception {
        List<InetAddress> addresses = new ArrayList<>();
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (nic.isUp()) {
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (!address.isLoopbackAddress() && !address.isLinkLocalAddress()) {
                        addresses.add(address);
                    }
                }
            }
        }
        return addresses;
    }

    private static boolean connects(InetAddress address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 5000);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    // Helpers.

    private static UserPrincipal nobody(Path path) throws java.io.IOException {
        return path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    }

    /** The user this JVM runs as: the owner of what it creates. */
    private static String runningUser() throws java.io.IOException {
        Path probe = Files.createTempFile("owner", ".probe");
        try {
            return Files.getOwner(probe).getName();
        } finally {
            Files.delete(probe);
        }
    }

    private static String mode(Path path) throws java.io.IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    /** A runtime configured by a URL (and {@code more} system properties), as the agent configures one. */
    static IdempotentRuntime configuredBy(String url, Map<String, String> more) {
        Map<String, String> properties = new HashMap<>(more);
        properties.put("idempotent.store.url", url);
        RuntimeConfiguration configuration = new RuntimeConfiguration(properties, Map.of());
        return IdempotentRuntime.builder().settings(configuration.store("default")).build();
    }
}
