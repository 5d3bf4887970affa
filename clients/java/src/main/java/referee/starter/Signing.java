package referee.starter;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Bot protocol v1 signatures, exactly as the service signs (arena/protocol.py):
 *  X-Referee-Signature = "v1=" + hex(HMAC-SHA256(key = secret's UTF-8 bytes,
 *                                                timestamp + "." + nonce + "." + raw body)). */
public final class Signing {
    /** How far a request's timestamp may be from our clock (the service's window). */
    public static final long MAX_SKEW_SECONDS = 300;

    private final Map<String, Long> seen = new HashMap<>();
    private long nextPrune;

    public static String signature(String secret, String timestamp, String nonce, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestamp + "." + nonce + ".").getBytes(StandardCharsets.UTF_8));
            return "v1=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e); // HmacSHA256 is in every JDK
        }
    }

    /** null when signed with secret and fresh, else why to refuse it. Nonces are kept only
     *  while their timestamp is inside the window: an older replay is refused as stale. */
    public synchronized String check(String secret, String timestamp, String nonce, String given,
                                     byte[] body, long now) {
        if (timestamp == null || !timestamp.matches("\\d{1,18}") || nonce == null
            || nonce.isEmpty() || given == null || given.isEmpty()) return "unsigned request";
        long stamp = Long.parseLong(timestamp);
        if (Math.abs(now - stamp) > MAX_SKEW_SECONDS) return "stale timestamp";
        byte[] expected = signature(secret, timestamp, nonce, body).getBytes(StandardCharsets.UTF_8);
        // constant time: a byte-by-byte compare would leak the signature's prefix
        if (!MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8))) {
            return "bad signature";
        }
        // only signed, fresh requests get here, so a forger cannot fill the table
        if (seen.containsKey(nonce)) return "replayed nonce";
        seen.put(nonce, stamp);
        if (now >= nextPrune) {
            seen.values().removeIf(t -> t < now - MAX_SKEW_SECONDS);
            nextPrune = now + MAX_SKEW_SECONDS / 10;
        }
        return null;
    }
}
