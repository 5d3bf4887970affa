// Where a strategy plugs in. The /move request carries "match" (the match id, a string, as in
// /start and /end), "game" ("yunnan", "dschunke",
// "yinzi-ming"), "seat", "decision" (its "kind" and "prompt"), "view" (what this seat may
// see), "legal_moves" (every legal move: choosing one is always legal) and "time"
// ("allowed_ms"). Branch on request.game for a per-game strategy; may return a Promise.
// Every field and each decision kind's prompt: /v1/bot-protocol/openapi.json, and one real
// request per kind in clients/protocol/examples/.

export interface MoveRequest {
  match: string;
  game: string;
  rules_version: string;
  seat: number;
  version: number;
  decision: { seat: number; kind: string; move_types: string[]; sealed: boolean; prompt: Record<string, unknown> };
  view: unknown;
  legal_moves: unknown[];
  time: { allowed_ms: number };
  [field: string]: unknown;
}

export function choose(request: MoveRequest): unknown {
  const moves = request.legal_moves;
  if (!Array.isArray(moves) || moves.length === 0) throw new Error('no legal_moves in the request');
  return moves[Math.floor(Math.random() * moves.length)];
}
