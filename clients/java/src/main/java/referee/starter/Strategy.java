package referee.starter;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** Where a strategy plugs in. The /move request carries "match" (the match id, a string, as
 *  in /start and /end), "game" ("yunnan", "dschunke",
 *  "yinzi-ming"), "seat", "decision" (its "kind" and "prompt"), "view" (what this seat may
 *  see), "legal_moves" (every legal move: choosing one is always legal) and "time"
 *  ("allowed_ms"). Branch on request.get("game") for a per-game strategy.
 *  Every field and each decision kind's prompt: /v1/bot-protocol/openapi.json, and one real
 *  request per kind in clients/protocol/examples/. */
public final class Strategy {
    private Strategy() {}

    public static Object choose(Map<String, Object> request) {
        if (!(request.get("legal_moves") instanceof List<?> moves) || moves.isEmpty()) {
            throw new IllegalArgumentException("no legal_moves in the request");
        }
        return moves.get(ThreadLocalRandom.current().nextInt(moves.size()));
    }
}
