package referee.starter;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The shared test vectors (generated from the service's own signing code) against
 *  Signing, plus the JSON round trip a move makes. A plain main: exit status 1 on failure.
 *    java -cp build:build-test referee.starter.SignatureTest [vectors.json] */
public final class SignatureTest {
    private static int failures;

    private static void expect(Object got, Object want, String what) {
        if (got == null ? want != null : !got.equals(want)) {
            failures++;
            System.out.println("FAIL " + what + ": got " + got + ", want " + want);
        }
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args.length > 0 ? args[0] : "../protocol/signature-vectors.json");
        Map<String, Object> doc = (Map<String, Object>) Json.parse(Files.readString(file, StandardCharsets.UTF_8));
        List<Object> vectors = (List<Object>) doc.get("vectors");
        expect(vectors.isEmpty(), false, "vectors present");
        for (int k = 0; k < vectors.size(); k++) {
            Map<String, String> v = (Map<String, String>) vectors.get(k);
            String s = v.get("secret"), ts = v.get("timestamp"), n = v.get("nonce");
            // the file may give the bare hex digest or the header value; the header has "v1="
            String want = v.get("signature").startsWith("v1=") ? v.get("signature") : "v1=" + v.get("signature");
            byte[] body = v.get("body").getBytes(StandardCharsets.UTF_8);
            String at = "vector " + k;
            expect(Signing.signature(s, ts, n, body), want, at);
            long now = Long.parseLong(ts);
            long skew = Signing.MAX_SKEW_SECONDS;
            Signing ver = new Signing();
            expect(ver.check(s, ts, n, want, body, now + skew), null, at + " fresh");
            expect(ver.check(s, ts, n, want, body, now), "replayed nonce", at + " replay");
            expect(ver.check(s, ts, n + "x", want, body, now), "bad signature", at + " nonce");
            expect(ver.check(s, ts, n, want, (v.get("body") + " ").getBytes(StandardCharsets.UTF_8), now),
                   "bad signature", at + " body");
            expect(ver.check(s, ts, "fresh", want, body, now + skew + 1), "stale timestamp", at + " late");
            expect(ver.check(s, ts, "fresh", want, body, now - skew - 1), "stale timestamp", at + " early");
            expect(ver.check(s, "", n, want, body, now), "unsigned request", at + " no timestamp");
            expect(ver.check(s, null, null, null, body, now), "unsigned request", at + " no headers");
        }
        String move = "{\"type\":\"bid\",\"cards\":[1,-2.5e3,12345678901234567890],\"note\":\"Y\\u00ednzi \\\"q\\\"\",\"x\":null,\"ok\":true}";
        expect(Json.write(Json.parse(move)), "{\"type\":\"bid\",\"cards\":[1,-2.5e3,12345678901234567890],"
               + "\"note\":\"Y\u00ednzi \\\"q\\\"\",\"x\":null,\"ok\":true}", "json round trip");
        for (String bad : new String[] {"{", "[1,]", "{\"a\" 1}", "01", "\"\\x\"", "[1] x"}) {
            try { Json.parse(bad); expect("parsed", "refused", "json " + bad); }
            catch (IllegalArgumentException e) { /* refused, as it should be */ }
        }
        if (failures > 0) System.exit(1);
        System.out.println("checked " + vectors.size() + " signature vectors from signature-vectors.json");
    }
}
