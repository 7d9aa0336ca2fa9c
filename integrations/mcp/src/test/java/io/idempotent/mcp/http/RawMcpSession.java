package io.idempotent.mcp.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * An MCP Streamable HTTP session spoken by hand, for what the SDK's Java client cannot do: send a
 * {@code notifications/cancelled} for its own request, or drop the TCP connection of a call in
 * flight (a network cut, a killed client process). Its {@code tools/call} runs on a raw socket the
 * test closes when it wants.
 */
final class RawMcpSession {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final URI endpoint;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(WAIT).build();
    private final String sessionId;

    /** Initializes a session (initialize, then notifications/initialized). */
    RawMcpSession(String baseUrl) throws Exception {
        this.endpoint = URI.create(baseUrl + "/mcp");
        HttpResponse<String> init = post(null, "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
        if (init.statusCode() != 200) {
            throw new IllegalStateException("initialize answered " + init.statusCode() + ": " + init.body());
        }
        this.sessionId = init.headers().firstValue("mcp-session-id")
                .orElseThrow(() -> new IllegalStateException("no mcp-session-id header"));
        post(sessionId, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    /** A tools/call in flight on its own connection, answered as an SSE stream. */
    final class Call implements AutoCloseable {
        private final Socket socket;
        private final BufferedReader in;

        private Call(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        }

        /** Reads the response's status line and headers (the transport sends them before the tool runs). */
        String status() throws IOException {
            String status = in.readLine();
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                // headers: not needed
            }
            return status;
        }

        /** Drops the connection, as a cut network or a killed client does. */
        @Override
        public void close() throws IOException {
            socket.setSoLinger(true, 0); // a reset, not a polite close: the server's next write fails
            socket.close();
        }
    }

    /** Sends {@code tools/call} with request id {@code id} on a new connection and returns it unread. */
    Call callTool(String id, String paramsJson) throws IOException {
        Socket socket = new Socket(endpoint.getHost(), endpoint.getPort());
        socket.setSoTimeout((int) WAIT.toMillis());
        byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"tools/call\",\"params\":" + paramsJson
                + "}").getBytes(StandardCharsets.UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(("POST " + endpoint.getPath() + " HTTP/1.1\r\nHost: " + endpoint.getHost() + ":" + endpoint.getPort()
                + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                + "Mcp-Session-Id: " + sessionId + "\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: "
                + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        return new Call(socket);
    }

    /** Sends {@code notifications/cancelled} for request {@code id}, as a client's AbortSignal does. */
    int cancel(String id) throws Exception {
        return post(sessionId, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\""
                + id + "\",\"reason\":\"the user stopped waiting\"}}").statusCode();
    }

    private HttpResponse<String> post(String session, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(WAIT)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (session != null) {
            request.header("Mcp-Session-Id", session).header("Mcp-Protocol-Version", "2025-06-18");
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
