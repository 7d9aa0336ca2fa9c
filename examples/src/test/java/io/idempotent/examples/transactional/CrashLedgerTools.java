package io.idempotent.examples.transactional;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;
import io.idempotent.runtime.OperationContext;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The tools of {@link TransactionalCrashIT}, run in forked JVMs with the agent: one ledger line
 * written in the application's own database, by a transactional tool (on the call's connection,
 * committed with the record) and by the same tool as it must be declared without that (its own
 * connection, committed before the record). Each may halt the JVM right after its write, before
 * anything else commits. Test fixtures, not example tools.
 */
public class CrashLedgerTools {

    /** Set to halt the JVM right after the body's write. */
    static volatile boolean haltAfterWrite;
    /** Where the non-transactional tool writes: the application's own database. */
    static volatile String url;
    static volatile String user;
    static volatile String password;

    @IdempotentTool(key = "ledger:{entryId}", transactional = true, downstreamKey = false, retry = Retry.SAFE,
            name = "crash_ledger_entry")
    public String addEntry(String entryId, long amountCents) throws SQLException {
        write(OperationContext.current().connection(), entryId, amountCents);
        return "entry " + entryId + " by pid " + ProcessHandle.current().pid();
    }

    @IdempotentTool(key = "ledger:{entryId}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE, lease = "PT1S", name = "crash_ledger_entry_plain")
    public String addEntryOnItsOwn(String entryId, long amountCents) throws SQLException {
        try (Connection own = DriverManager.getConnection(url, user, password)) {
            write(own, entryId, amountCents);
        }
        return "entry " + entryId + " by pid " + ProcessHandle.current().pid();
    }

    private static void write(Connection c, String entryId, long amountCents) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger (entry_id, amount_cents) VALUES (?, ?)")) {
            ps.setString(1, entryId);
            ps.setLong(2, amountCents);
            ps.executeUpdate();
        }
        System.out.println("WROTE " + entryId);
        System.out.flush();
        if (haltAfterWrite) {
            // After the write, before the commit (transactional) or the completion (plain): a killed JVM.
            Runtime.getRuntime().halt(42);
        }
    }
}
