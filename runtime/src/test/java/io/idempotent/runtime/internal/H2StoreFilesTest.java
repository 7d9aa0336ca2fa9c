package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.FileSystems;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import org.junit.jupiter.api.Test;

/**
 * Who may own the embedded store's directory. The tests run as root, so a JVM of another user
 * cannot be started here: the rule is asserted on the users themselves, and the refusal as root
 * end to end in {@code EmbeddedStoreSecurityTest}.
 */
class H2StoreFilesTest {

    private static final UserPrincipalLookupService USERS = FileSystems.getDefault().getUserPrincipalLookupService();

    @Test
    void aDirectoryMayBeOwnedByTheJvmsUserOrByRootOnly() throws Exception {
        UserPrincipal root = USERS.lookupPrincipalByName("root");
        UserPrincipal nobody = USERS.lookupPrincipalByName("nobody");
        UserPrincipal daemon = USERS.lookupPrincipalByName("daemon");

        assertThat(H2StoreFiles.mayOwnTheDirectory(nobody, nobody, root)).as("its own").isTrue();
        assertThat(H2StoreFiles.mayOwnTheDirectory(root, nobody, root)).as("root's, for another user").isTrue();
        assertThat(H2StoreFiles.mayOwnTheDirectory(daemon, nobody, root)).as("another user's").isFalse();
        assertThat(H2StoreFiles.mayOwnTheDirectory(nobody, root, root)).as("another user's, for root").isFalse();
        assertThat(H2StoreFiles.mayOwnTheDirectory(nobody, root, null)).as("no root by that name").isFalse();
    }
}
