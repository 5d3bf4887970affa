package referee.starter;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Registration: POST /v1/bots (the service calls our GET / meanwhile, so we serve first). */
final class Registration {
    private Registration() {}

    /** One call of the service's /v1 API, with $REFEREE_KEY when set. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> call(String service, String method, String path, Object body)
            throws IOException, InterruptedException {
        String base = service.replaceAll("/+$", "").replaceAll("/v1$", "");
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/v1" + path))
            .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
            .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                                         : HttpRequest.BodyPublishers.ofString(Json.write(body)));
        String key = System.getenv("REFEREE_KEY");
        if (key != null && !key.isEmpty()) request.header("Authorization", "Bearer " + key);
        // plain HTTP/1.1: the default would offer an h2c upgrade the service does not speak
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> response = client.send(request.build(),
                                                    HttpResponse.BodyHandlers.ofString());
        Map<String, Object> data;
        try {
            data = (Map<String, Object>) Json.parse(response.body());
        } catch (RuntimeException e) {
            data = new LinkedHashMap<>();
        }
        if (response.statusCode() >= 300) {
            throw new Refused(String.valueOf(data.get("code")), data.get("code") + " (HTTP "
                              + response.statusCode() + "): " + data.get("detail"));
        }
        return data;
    }

    static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;
        final String code;
        Refused(String code, String message) { super(message); this.code = code; }
    }

    /** Register the serving bot at url and keep its secret. A URL is registered once: a
     *  restart that registers again gets bot.url_taken and goes on with the kept secret. */
    @SuppressWarnings("unchecked")
    static void register(Secret secret, String service, String url, String name, List<String> games)
            throws IOException, InterruptedException {
        List<String> claimed = new ArrayList<>(games);
        if (claimed.isEmpty()) {
            for (Object game : (List<Object>) call(service, "GET", "/games", null).get("games")) {
                claimed.add((String) ((Map<String, Object>) game).get("name"));
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("url", url);
        body.put("games", claimed);
        body.put("name", name);
        Map<String, Object> record;
        try {
            record = call(service, "POST", "/bots", body);
        } catch (Refused e) {
            if (e.code.equals("bot.url_taken") && !secret.get().isEmpty()) {
                System.out.println("already registered at " + url + "; verifying with the kept secret");
                return;
            }
            throw e;
        }
        secret.keep((String) record.get("secret"));
        System.out.println("registered bot " + record.get("id") + " with " + service + " for "
                           + String.join(",", claimed) + "; secret kept in " + secret.file);
    }
}
