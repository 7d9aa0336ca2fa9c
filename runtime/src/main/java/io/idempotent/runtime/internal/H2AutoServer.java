package io.idempotent.runtime.internal;

import io.idempotent.policy.internal.H2Loopback;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * The TCP server through which an H2 file store with {@code AUTO_SERVER=TRUE} shares its file with
 * the other JVMs of the machine listens on loopback only. H2 starts that server with
 * {@code -tcpAllowOthers} and binds it to every network interface unless its system property
 * {@code h2.bindAddress} names one; it reads the property once, when H2 is first used in the
 * JVM. So the agent sets {@code h2.bindAddress=127.0.0.1}, when it is unset, in premain, and
 * the runtime again before the store first uses H2 ({@link H2Loopback}); the other JVMs find the server at the address the {@code .lock.db} file gives,
 * which is then the loopback one. Where it is too late (the application used H2 first) or the
 * property names another address, the server listens beyond loopback, guarded only by the lock
 * file's key (owner-only, {@link H2StoreFiles}) and the store's password: the runtime says so in
 * a WARNING with the fix, rather than refuse a store that still keeps other users out.
 */
final class H2AutoServer {

    private static final System.Logger LOG = System.getLogger(H2AutoServer.class.getName());
    static final String BIND_ADDRESS = H2Loopback.BIND_ADDRESS;

    private H2AutoServer() {
    }

    /** Whether {@code url} shares its file through H2's auto-server. */
    static boolean shares(String url) {
        return url.toUpperCase(Locale.ROOT).replace(" ", "").contains(";AUTO_SERVER=TRUE");
    }

    /** Keeps the auto-server of store {@code store} on loopback, or warns that it cannot. */
    static void keepOnLoopback(String store) {
        H2Loopback.keep(); // the agent did so in premain already; a JVM without it gets it here
        String effective = org.h2.engine.SysProperties.BIND_ADDRESS; // read by H2 once, now or earlier
        if (loopback(effective)) {
            return;
        }
        String why = effective == null || effective.isEmpty()
                ? "H2 was used in this JVM before the store opened, without h2.bindAddress"
                : "h2.bindAddress is " + effective;
        LOG.log(System.Logger.Level.WARNING, "store {0}: H2''s AUTO_SERVER, which shares the store''s file with the"
                + " other JVMs, accepts connections on every network interface, not on loopback only ({1}); the"
                + " lock file''s key and the store''s password still guard it. Start the JVM with"
                + " -Dh2.bindAddress=127.0.0.1, or give the store a URL without AUTO_SERVER=TRUE", store, why);
    }

    private static boolean loopback(String address) {
        if (address == null || address.isEmpty()) {
            return false;
        }
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
