package io.idempotent.runtime.internal;

import io.idempotent.runtime.internal.store.SqlStates;
import io.idempotent.runtime.internal.store.StoreChangingHands;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * What an H2 error of an embedded store's file means, told by who holds the file at that moment
 * ({@link H2FileOwner}). While another process holds it, every error H2 raises about the file
 * (its lock file taken over, "The file is locked", "Lock file recently modified", 90020, 90028,
 * even 90030) is a store changing hands or stalled: {@link StoreChangingHands}, retry later, naming
 * the holder. A verdict about the file itself (corrupted, or held by a process that does not
 * share it) is left to the caller only when it is certain: the file fails with no other process
 * holding it, or a holder keeps it that is running, never served the file, and keeps no lock
 * file. One instance per store remembers which processes it saw serving the file.
 */
final class H2FileCheck implements UnaryOperator<SQLException> {

    private final H2FileOwner owner;
    /** Processes seen holding the file while its lock file named an H2 server: JVMs that share it. */
    private final Set<Long> sharingHolders = ConcurrentHashMap.newKeySet();

    /** The check of {@code database} (a path without {@code .mv.db}). */
    H2FileCheck(Path database) {
        this.owner = H2FileOwner.of(database);
    }

    /** The holder as the operating system tells it now, or null (none, or it cannot be told). */
    Long holder() {
        Long pid = owner.holderPid();
        if (pid != null && owner.serverAddress() != null) {
            sharingHolders.add(pid);
        }
        return pid;
    }

    /** Whether another process than this JVM holds the file now. */
    boolean heldElsewhere(Long pid) {
        return pid != null && !H2FileOwner.isThisProcess(pid);
    }

    /**
     * Whether the process {@code pid}, which holds the file without a lock file beside it, may be
     * a JVM that shares the file and is only stalled: it is stopped, or it was seen serving the
     * file. Only a running holder never seen sharing is one that does not share it.
     */
    boolean maybeStalledSharer(long pid) {
        return sharingHolders.contains(pid) || H2FileOwner.isStopped(pid);
    }

    /** Records who serves the file now (after a connection was opened): a later stall of it is then told apart. */
    void noteHolder() {
        holder();
    }

    /**
     * {@code e} said as a store changing hands when it is an H2 error of the file and another
     * process holds the file now; otherwise {@code e} itself.
     */
    @Override
    public SQLException apply(SQLException e) {
        if (!SqlStates.isH2FileState(e)) {
            return e;
        }
        Long pid = holder();
        return heldElsewhere(pid) ? changingHands(e, pid) : e;
    }

    /** The retryable failure for {@code e}, met while process {@code pid} (or an unknown one) holds the file. */
    StoreChangingHands changingHands(SQLException e, Long pid) {
        return changingHands(e, pid, null);
    }

    /** As {@link #changingHands(SQLException, Long)}, saying {@code why} this JVM gave up waiting, when it did. */
    StoreChangingHands changingHands(SQLException e, Long pid, String why) {
        return new StoreChangingHands("the H2 file " + owner.file() + " is held by another JVM" + owner.describe(pid,
                owner.serverAddress()) + ", which is not answering" + (why == null ? "" : " (" + why + ")")
                + ": it is stalled (a long pause, a debugger, a stopped process) or the file is changing hands;"
                + " nothing is wrong with the file", SqlStates.h2Code(e), e);
    }

    /** The verdict on a file that fails with no other process holding it: unreadable, with its fix. */
    SQLException unreadable(SQLException e) {
        return SqlStates.namingH2File(e, owner.file());
    }

    /** Whether the lock file that a sharing holder keeps beside the file exists. */
    boolean lockFileExists() {
        return owner.lockFileExists();
    }

    /** Whether the operating system tells who holds the file (Linux's {@code /proc/locks}). */
    static boolean holdersKnown() {
        return java.nio.file.Files.isReadable(Path.of("/proc/locks"));
    }
}
