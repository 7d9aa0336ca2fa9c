package io.idempotent.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The client side of an in-process MCP stdio transport: JSON-RPC lines over pipes to a real
 * {@code McpServer}, as a client process would send them. The pipes are NIO's, which any thread
 * may write: {@code java.io}'s piped streams fail a read with "Write end dead" once the thread
 * that wrote last has ended (a test thread that sent a request, a server thread that answered),
 * which real stdio never does.
 */
final class PipedMcpClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final InputStream serverIn;
    final OutputStream serverOut;
    private final OutputStream toServer;
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final Thread reader;

    PipedMcpClient() throws IOException {
        Pipe clientToServer = Pipe.open();
        Pipe serverToClient = Pipe.open();
        serverIn = Channels.newInputStream(clientToServer.source());
        toServer = Channels.newOutputStream(clientToServer.sink());
        serverOut = Channels.newOutputStream(serverToClient.sink());
        InputStream fromServer = Channels.newInputStream(serverToClient.source());
        reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    JsonNode message = JSON.readTree(line);
                    if (message.has("id") && !message.has("method")) {
                        pending.remove(message.get("id").asInt()).complete(message);
                    }
                }
            } catch (IOException e) {
                pending.values().forEach(f -> f.completeExceptionally(e));
            }
        }, "mcp-client-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Sends a request and waits (with a deadline) for its response. */
    JsonNode request(String method, Object params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> response = new CompletableFuture<>();
        pending.put(id, response);
        send(Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", params));
        return response.get(30, TimeUnit.SECONDS);
    }

    void notify(String method) throws IOException {
        send(Map.of("jsonrpc", "2.0", "method", method));
    }

    void initialize() throws Exception {
        request("initialize", Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(),
                "clientInfo", Map.of("name", "test-client", "version", "1")));
        notify("notifications/initialized");
    }

    /** tools/call with arguments and the step in _meta. */
    JsonNode callTool(String tool, Map<String, Object> arguments, Map<String, Object> meta) throws Exception {
        return request("tools/call", Map.of("name", tool, "arguments", arguments, "_meta", meta));
    }

    private synchronized void send(Object message) throws IOException {
        toServer.write((JSON.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
        toServer.flush();
    }

    @Override
    public void close() throws IOException {
        toServer.close();
    }
}
