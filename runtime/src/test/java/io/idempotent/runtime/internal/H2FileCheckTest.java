package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.internal.store.KnownStoreProblem;
import io.idempotent.runtime.internal.store.StoreChangingHands;
import io.idempotent.runtime.testing.EmbeddedStoreProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import org.h2.message.DbException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An H2 error about the embedded store's file means what the file's holder says: while another
 * JVM holds it, a store changing hands naming that JVM; with no holder, the error itself, whose
 * verdict (corrupted, unreadable) then stands.
 */
class H2FileCheckTest {

    @Test
    void anErrorAboutAFileAnotherJvmHoldsIsAStoreChangingHandsNamingIt(@TempDir Path dir) throws Exception {
        Path database = dir.resolve("operations");
        SQLException unreadable = DbException.get(90028, "zqparam").getSQLException();
        try (EmbeddedStoreProcess owner = EmbeddedStoreProcess.open(database, false)) {
            H2FileCheck check = new H2FileCheck(database);
            SQLException explained = check.apply(unreadable);
            assertThat((Throwable) explained).isInstanceOf(StoreChangingHands.class)
                    .hasMessageContaining("held by another JVM (process " + owner.pid() + ", whose H2 server is ")
                    .hasMessageContaining("as operations.lock.db says").hasMessageContaining("nothing is wrong")
                    .hasMessageNotContaining("backup").hasMessageNotContaining("aside");
            assertThat(((StoreChangingHands) explained).code()).isEqualTo("H2 error 90028");
            assertThat(check.maybeStalledSharer(owner.pid())).as("seen serving the file").isTrue();
            assertThat((Throwable) check.apply(new SQLException("wrong password", "28000", 28000)))
                    .as("not an error about the file").isNotInstanceOf(StoreChangingHands.class);
        }
    }

    @Test
    void anErrorAboutAFileNoOtherProcessHoldsKeepsItsVerdict(@TempDir Path dir) throws Exception {
        Path database = dir.resolve("operations");
        Files.write(Path.of(database + ".mv.db"), new byte[4096]);
        H2FileCheck check = new H2FileCheck(database);
        SQLException corrupted = DbException.get(90030, "zqparam").getSQLException();
        assertThat((Throwable) check.apply(corrupted)).isSameAs(corrupted);
        assertThat((Throwable) check.unreadable(corrupted)).isInstanceOf(KnownStoreProblem.class)
                .hasMessageContaining("operations.mv.db").hasMessageContaining("corrupted");
    }
}
