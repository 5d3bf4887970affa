package referee.starter;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;

/** A bot protocol v1 starter in Java 17 (com.sun.net.httpserver, no libraries): it plays a
 *  random legal move in every game; put your strategy in Strategy.choose().
 *
 *    java -cp build referee.starter.Bot --port 9001 --register http://127.0.0.1:8000
 *    java -cp build referee.starter.Bot --port 9001      (later: reads the secret back) */
public final class Bot {
    private static final int MAX_BODY = 16 * 1024 * 1024;
    private static final Set<String> ROUTES = Set.of("/start", "/move", "/end");

    private final Map<String, Object> info;
    private final Secret secret;
    private final Signing verifier = new Signing();

    Bot(Map<String, Object> info, Secret secret) { this.info = info; this.secret = secret; }

    /** Answer with an explicit Content-Length (never chunked), so the connection stays alive. */
    private static void send(HttpExchange ex, int status, Object payload) throws IOException {
        byte[] body = Json.write(payload).getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, body.length);
        try (OutputStream out = ex.getResponseBody()) { out.write(body); }
    }

    private static Map<String, Object> error(String why) { return Map.of("error", why); }

    @SuppressWarnings("unchecked")
    void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        String method = ex.getRequestMethod();
        if (method.equals("GET") && path.equals("/")) { send(ex, 200, info); return; } // unsigned
        byte[] body;
        try (InputStream in = ex.getRequestBody()) { body = in.readNBytes(MAX_BODY + 1); }
        if (!method.equals("POST") || !ROUTES.contains(path)) { send(ex, 404, error("no endpoint")); return; }
        if (body.length > MAX_BODY) { send(ex, 413, error("too large")); return; }
        String known = secret.get();
        var h = ex.getRequestHeaders();
        // an unregistered bot can verify nothing, so it accepts nothing
        String reason = known.isEmpty() ? "no secret yet"
            : verifier.check(known, h.getFirst("X-Referee-Timestamp"), h.getFirst("X-Referee-Nonce"),
                             h.getFirst("X-Referee-Signature"), body, System.currentTimeMillis() / 1000);
        if (reason != null) { send(ex, 401, error(reason)); return; }
        Object request;
        try {
            request = Json.parse(new String(body, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            send(ex, 400, error("the body is not JSON"));
            return;
        }
        if (!path.equals("/move")) { send(ex, 200, new HashMap<>()); return; } // any 2xx
        try {
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("move", Strategy.choose((Map<String, Object>) request));
            send(ex, 200, answer);
        } catch (RuntimeException e) { // our own bug: say so (the service records it), never fake a move
            e.printStackTrace();
            send(ex, 500, error(String.valueOf(e)));
        }
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<>(Map.of("port", "9001", "host", "127.0.0.1",
                                                         "name", "java-starter", "games", ""));
        for (int k = 0; k < argv.length; k++) {
            if (!argv[k].startsWith("--") || k + 1 >= argv.length) {
                System.err.println("usage: Bot [--port N] [--host H] [--name NAME] [--games g1,g2] "
                                   + "[--secret-file PATH] [--register SERVICE_URL] [--public-url URL]");
                System.exit(2);
            }
            args.put(argv[k].substring(2), argv[++k]);
        }
        String name = args.get("name");
        List<String> games = args.get("games").isEmpty() ? List.of() : List.of(args.get("games").split(","));
        String file = args.getOrDefault("secret-file", System.getenv("REFEREE_BOT_SECRET_FILE"));
        Secret secret = new Secret(System.getenv("REFEREE_BOT_SECRET"),
                                   file != null ? Path.of(file) : Secret.defaultFile(name));
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("apiversion", "1");
        info.put("name", name);
        info.put("author", "java starter");
        info.put("games", games);
        Bot bot = new Bot(info, secret);
        // the JDK server leaves Nagle on unless asked: ~40 ms per answer with delayed ACKs
        System.setProperty("sun.net.httpserver.nodelay", "true");
        String host = args.get("host");
        HttpServer server = HttpServer.create(new InetSocketAddress(host, Integer.parseInt(args.get("port"))), 0);
        server.createContext("/", bot::handle);
        server.setExecutor(Executors.newCachedThreadPool()); // the service calls several matches at once
        server.start(); // HTTP/1.1, keep-alive while every answer has a Content-Length
        String url = args.getOrDefault("public-url", "http://" + (host.equals("0.0.0.0") ? "127.0.0.1" : host)
                                       + ":" + server.getAddress().getPort());
        System.out.println(name + " serving " + url + " (bot protocol v1)");
        if (args.containsKey("register")) {
            try {
                Registration.register(secret, args.get("register"), url, name, games);
            } catch (IOException e) {
                System.err.println("registration refused: " + e.getMessage());
                System.exit(1);
            }
        } else if (secret.get().isEmpty()) {
            System.out.println("no secret in " + secret.file + " yet: every POST is refused until you --register");
        }
    }
}
