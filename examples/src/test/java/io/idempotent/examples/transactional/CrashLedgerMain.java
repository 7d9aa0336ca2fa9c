package io.idempotent.examples.transactional;

/**
 * The forked JVM of {@link TransactionalCrashIT}: calls one of {@link CrashLedgerTools} (twice:
 * the second call is a repeat of the first) and prints what each got. Arguments: tool
 * (transactional or plain), entry id, halt after the write (true or false), the database's URL,
 * user and password (for the plain tool's own connection).
 */
public final class CrashLedgerMain {

    private CrashLedgerMain() {
    }

    public static void main(String[] args) {
        CrashLedgerTools.haltAfterWrite = Boolean.parseBoolean(args[2]);
        CrashLedgerTools.url = args[3];
        CrashLedgerTools.user = args[4];
        CrashLedgerTools.password = args[5];
        CrashLedgerTools tools = new CrashLedgerTools();
        for (int call = 0; call < 2; call++) {
            try {
                String result = args[0].equals("transactional") ? tools.addEntry(args[1], 1250)
                        : tools.addEntryOnItsOwn(args[1], 1250);
                System.out.println("RESULT " + result);
            } catch (Throwable t) {
                System.out.println("THROWN " + t.getClass().getName());
            }
        }
        System.out.flush();
    }
}
