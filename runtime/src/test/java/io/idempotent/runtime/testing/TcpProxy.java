package io.idempotent.runtime.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP forwarder on 127.0.0.1 in front of a real database server that can cut a connection at
 * a chosen moment of its conversation: the first connection whose client sends bytes containing
 * a chosen text (in UTF-8 or in UTF-16, as H2's protocol writes strings) is dropped before they
 * reach the server, the way a database restart or a killed backend drops it.
 */
public final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicReference<byte[][]> trigger = new AtomicReference<>();
    private final AtomicInteger dropped = new AtomicInteger();
    private final AtomicReference<byte[]> replyTrigger = new AtomicReference<>();

    /** Forwards 127.0.0.1:(a free port) to {@code host:port}. */
    public TcpProxy(String host, int port) {
        this.target = new InetSocketAddress(host, port);
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::accept, "tcp-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The proxy's port. */
    public int port() {
        return server.getLocalPort();
    }

    /** Drops the first connection that sends {@code text}, once. */
    public void dropFirstConnectionSending(String text) {
        trigger.set(new byte[][] {text.getBytes(StandardCharsets.UTF_8), text.getBytes(StandardCharsets.UTF_16BE)});
    }

    /**
     * Forwards the first PostgreSQL request that contains {@code text} to the server, lets the
     * server answer it completely (up to its ReadyForQuery: an auto-committed statement has
     * committed), and then drops the connection without passing the answer on: a reply lost on
     * its way back, once.
     */
    public void loseReplyToFirstSending(String text) {
        replyTrigger.set(text.getBytes(StandardCharsets.UTF_8));
    }

    /** How many connections were dropped. */
    public int dropped() {
        return dropped.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket();
                upstream.connect(target, 5_000);
                sockets.add(client);
                sockets.add(upstream);
                java.util.concurrent.atomic.AtomicBoolean loseReply = new java.util.concurrent.atomic.AtomicBoolean();
                pump(client, upstream, true, loseReply);
                pump(upstream, client, false, loseReply);
            } catch (IOException e) {
                // closed, or the target refused: the client sees its connection end
            }
        }
    }

    private void pump(Socket from, Socket to, boolean fromClient,
            java.util.concurrent.atomic.AtomicBoolean loseReply) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            byte[] tail = new byte[0];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (fromClient) {
                        byte[] seen = concat(tail, buffer, n);
                        if (triggers(seen)) {
                            dropped.incrementAndGet();
                            break;
                        }
                        byte[] reply = replyTrigger.get();
                        if (reply != null && indexOf(seen, reply) >= 0 && replyTrigger.compareAndSet(reply, null)) {
                            loseReply.set(true);
                        }
                        tail = last(seen, 64);
                    } else if (loseReply.get()) {
                        // Swallowed; once the server says ReadyForQuery ('Z', length 5, status), the
                        // statement has ended (and committed, in auto-commit): cut the connection.
                        tail = last(concat(tail, buffer, n), 6);
                        if (tail.length == 6 && tail[0] == 'Z' && tail[1] == 0 && tail[2] == 0 && tail[3] == 0
                                && tail[4] == 5) {
                            dropped.incrementAndGet();
                            break;
                        }
                        continue;
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side went away
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private boolean triggers(byte[] seen) {
        byte[][] patterns = trigger.get();
        if (patterns == null) {
            return false;
        }
        for (byte[] pattern : patterns) {
            if (indexOf(seen, pattern) >= 0 && trigger.compareAndSet(patterns, null)) {
                return true;
            }
        }
        return false;
    }

    private static int indexOf(byte[] data, byte[] pattern) {
        outer:
        for (int i = 0; i + pattern.length <= data.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static byte[] concat(byte[] a, byte[] b, int bLength) {
        byte[] out = new byte[a.length + bLength];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, bLength);
        return out;
    }

    private static byte[] last(byte[] data, int max) {
        int from = Math.max(0, data.length - max);
        byte[] out = new byte[data.length - from];
        System.arraycopy(data, from, out, 0, out.length);
        return out;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed
        }
        sockets.forEach(TcpProxy::closeQuietly);
    }
}
