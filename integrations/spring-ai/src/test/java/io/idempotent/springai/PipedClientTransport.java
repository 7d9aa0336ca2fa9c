package io.idempotent.springai;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * An MCP client transport over in-process pipes to a real server's stdio transport: the SDK's
 * client (and Spring AI's MCP tool callbacks on it) talk JSON-RPC lines to the server as they
 * would to a server process. The pipes are NIO's, which any thread may write: {@code java.io}'s
 * piped streams fail a read with "Write end dead" once the thread that wrote last has ended (a
 * Reactor thread that sent a request, a server thread that answered), which real stdio never does.
 */
final class PipedClientTransport implements McpClientTransport {

    final InputStream serverIn;
    final OutputStream serverOut;
    private final McpJsonMapper json;
    private final OutputStream toServer;
    private final InputStream fromServer;

    PipedClientTransport(McpJsonMapper json) throws IOException {
        this.json = json;
        Pipe clientToServer = Pipe.open();
        Pipe serverToClient = Pipe.open();
        this.serverIn = Channels.newInputStream(clientToServer.source());
        this.toServer = Channels.newOutputStream(clientToServer.sink());
        this.serverOut = Channels.newOutputStream(serverToClient.sink());
        this.fromServer = Channels.newInputStream(serverToClient.source());
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    McpSchema.JSONRPCMessage message = McpSchema.deserializeJsonRpcMessage(json, line);
                    // The client session answers the server's requests itself, through sendMessage.
                    handler.apply(Mono.just(message)).subscribe();
                }
            } catch (IOException e) {
                // The server closed its end: the client's pending requests fail by their timeout.
                System.getLogger(PipedClientTransport.class.getName()).log(System.Logger.Level.DEBUG,
                        "in-process MCP pipe closed", e);
            }
        }, "mcp-piped-client-reader");
        reader.setDaemon(true);
        reader.start();
        return Mono.empty();
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.fromRunnable(() -> {
            try {
                synchronized (toServer) {
                    toServer.write((json.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
                    toServer.flush();
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(() -> {
            try {
                toServer.close();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        return json.convertValue(data, type);
    }
}
