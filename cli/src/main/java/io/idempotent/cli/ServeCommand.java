package io.idempotent.cli;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.Operations;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code serve}: the web console, on 127.0.0.1 unless told otherwise. */
@Command(name = "serve", description = "Starts the web console: the reconciliation and approval queues, incident"
        + " reviews, settlement and approval forms. Listens on 127.0.0.1 only, unless --bind names another address.")
final class ServeCommand extends StoreCommand {

    /** The environment variable that supplies the console token instead of a random one. */
    static final String TOKEN_ENV = "IDEMPOTENT_CONSOLE_TOKEN";
    private static final Pattern ALLOWED_HOST = Pattern.compile("[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?"
            + "|\\[[0-9A-Fa-f:.]{2,45}\\](:[0-9]{1,5})?");

    @Option(names = "--port", defaultValue = "8089", paramLabel = "PORT",
            description = "The port (0 picks a free one); default ${DEFAULT-VALUE}.")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
            description = "The address to listen on; default ${DEFAULT-VALUE}. Anything else exposes settlements"
                    + " to that network: put it behind TLS and an authenticating proxy.")
    String bind;

    @Option(names = "--allowed-host", paramLabel = "HOST[:PORT]",
            description = "A Host header value the console also answers, exactly as a proxy in front of it sends it"
                    + " (repeatable). Without it, only the console's own address, localhost and 127.0.0.1 with its"
                    + " port are answered, which refuses DNS rebinding.")
    List<String> allowedHosts = new ArrayList<>();

    @Option(names = "--app-classpath", paramLabel = "PATH",
            description = "The application's jars or classes, to check settled results against the tools'"
                    + " return types (without it, only 'not applied' settlements are possible).")
    String appClassPath;

    @Override
    void checkOptions() {
        super.checkOptions();
        hosts();
        String token = System.getenv(TOKEN_ENV);
        if (token != null && !token.isBlank()) {
            String problem = ConsoleToken.problem(token);
            if (problem != null) {
                throw new UsageException(TOKEN_ENV + " is refused: " + problem + ", so it could be guessed; set one"
                        + " of at least " + ConsoleToken.MIN_BITS + " random bits, such as the output of: openssl"
                        + " rand -base64 32 (or unset it and use the token serve prints)");
            }
        }
    }

    /** The {@code --allowed-host} values, lower case; refused when one cannot be a Host header. */
    private Set<String> hosts() {
        Set<String> hosts = new HashSet<>();
        for (String host : allowedHosts) {
            if (!ALLOWED_HOST.matcher(host).matches()) {
                throw new UsageException("--allowed-host must be a host name with an optional port, as the proxy"
                        + " sends it in the Host header (console.example.com or console.example.com:8443)");
            }
            hosts.add(host.toLowerCase(Locale.ROOT));
        }
        return hosts;
    }

    @Override
    int run(IdempotentRuntime runtime, Operations operations, PrintWriter out) {
        String token = System.getenv(TOKEN_ENV);
        boolean generated = token == null || token.isBlank();
        if (generated) {
            byte[] bytes = new byte[16];
            new SecureRandom().nextBytes(bytes);
            token = HexFormat.of().formatHex(bytes);
        }
        ToolCatalog catalog = appClassPath == null ? null : ToolCatalog.of(appClassPath);
        CountDownLatch stopped = new CountDownLatch(1);
        try (ConsoleServer console = new ConsoleServer(runtime, store.name(), store::explained, catalog, token,
                new InetSocketAddress(InetAddress.getByName(bind), port), hosts())) {
            console.start();
            Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "idempotent-console-stop"));
            out.println(TerminalText.escape("Console of store " + store.name() + " (" + store.describe() + ") at "
                    + console.uri()));
            out.println(generated ? "Settlement token: " + token + " (set " + TOKEN_ENV + " to choose one)"
                    : "Settlement token: from " + TOKEN_ENV);
            out.println("Stop with Ctrl-C.");
            out.flush();
            stopped.await();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + bind + ":" + port + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return ExitCode.OK;
    }
}
