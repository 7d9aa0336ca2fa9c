package io.idempotent.test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;

/**
 * A failure the kit injects into one call of a tool: on the near side of the external call (the
 * request never reaches the downstream), on the far side (the downstream committed, the caller
 * never learns it), in the worker, or in the store under the completion write.
 */
public enum Fault {
    /** Nothing fails. */
    NONE("none", Side.NONE),
    /** The connection is refused: the request never reaches the downstream. */
    CONNECTION_REFUSED("connection refused before send", Side.BEFORE_SEND),
    /** Connecting times out: the request never reaches the downstream. */
    TIMEOUT_BEFORE_SEND("connect timeout before send", Side.BEFORE_SEND),
    /** The downstream commits; reading its reply times out. */
    REPLY_LOST_TIMEOUT("committed, reply timed out", Side.AFTER_COMMIT),
    /** The downstream commits; the connection is reset before the reply arrives. */
    CONNECTION_RESET_AFTER_COMMIT("committed, connection reset", Side.AFTER_COMMIT),
    /**
     * The downstream commits; the worker dies before it sees the reply. Simulated without killing
     * the test JVM: the attempt is abandoned as a dead worker leaves it (heartbeat stopped, nothing
     * recorded) and its lease, shortened for the test, expires.
     */
    WORKER_DIES_AFTER_COMMIT("committed, worker died", Side.AFTER_COMMIT),
    /** The store's connection breaks once before the completion write reaches it. */
    STORE_FAILS_ONCE_BEFORE_COMPLETION("store failed once before completion write", Side.STORE),
    /** The store commits the completion write once, and its reply is lost. */
    STORE_LOSES_COMPLETION_REPLY("store committed completion, reply lost", Side.STORE),
    /** The store fails every try of the completion write (the downstream had committed). */
    STORE_DOWN_UNDER_COMPLETION("store down under completion write", Side.STORE);

    /** Where a fault strikes. */
    enum Side { NONE, BEFORE_SEND, AFTER_COMMIT, STORE }

    private final String label;
    private final Side side;

    Fault(String label, Side side) {
        this.label = label;
        this.side = side;
    }

    /** The fault in the words of the report. */
    public String label() {
        return label;
    }

    Side side() {
        return side;
    }

    /** Whether the downstream applied the effect before the failure. */
    boolean downstreamCommitted() {
        return side == Side.AFTER_COMMIT || this == STORE_DOWN_UNDER_COMPLETION;
    }

    /** Whether the worker's lease must run out before anyone can go on (a dead worker, a store that stayed down). */
    boolean leavesLeaseToExpire() {
        return this == WORKER_DIES_AFTER_COMMIT || this == STORE_DOWN_UNDER_COMPLETION;
    }

    /** The transport exception a client sees for this fault; the JDK {@code HttpClient} has its own timeout types. */
    IOException transportFailure(String target, boolean jdkHttpClient) {
        String injected = " (injected by the contract test kit at " + target + ")";
        return switch (this) {
            case CONNECTION_REFUSED -> new ConnectException("Connection refused" + injected);
            case TIMEOUT_BEFORE_SEND -> jdkHttpClient ? new HttpConnectTimeoutException("HTTP connect timed out" + injected)
                    : new SocketTimeoutException("connect timed out" + injected);
            case REPLY_LOST_TIMEOUT -> jdkHttpClient ? new HttpTimeoutException("request timed out" + injected)
                    : new SocketTimeoutException("Read timed out" + injected);
            case CONNECTION_RESET_AFTER_COMMIT -> new SocketException("Connection reset" + injected);
            default -> throw new IllegalStateException(this + " is not a transport failure");
        };
    }
}
