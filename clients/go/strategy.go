package main

// Where a strategy plugs in. request is the /move body: "match" (the match id, a string, as
// in /start and /end), "game", "seat", "decision" (what is
// being decided: its "kind" and "prompt"), "view" (what this seat may see), "legal_moves"
// (every legal move, so choosing one of them is always legal) and "time" ("allowed_ms").
// Branch on request["game"] ("yunnan", "dschunke", "yinzi-ming") for a per-game strategy.
// Every field and each decision kind's prompt: /v1/bot-protocol/openapi.json, and one real
// request per kind in clients/protocol/examples/.

import (
	"fmt"
	"math/rand"
	"time"
)

// Go before 1.20 starts math/rand from the same seed every run: seed it once.
func init() { rand.Seed(time.Now().UnixNano()) }

func choose(request map[string]any) (any, error) {
	moves, ok := request["legal_moves"].([]any)
	if !ok || len(moves) == 0 {
		return nil, fmt.Errorf("no legal_moves in the request")
	}
	return moves[rand.Intn(len(moves))], nil
}
