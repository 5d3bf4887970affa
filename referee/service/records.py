"""Service-level records shared by the API, the arena and the offline commands."""

from __future__ import annotations

import json

from referee.service.bigint import seed_text


def created_body(created, seed_chosen: bool) -> dict:
    """The answer to a match creation: id, version, seats, tokens (and the seed if chosen)."""
    meta, live = created.meta, created.live
    data = {"id": meta.id, "game": meta.game, "rules_version": meta.rules_version,
            "version": live.version, "status": live.status,
            "tokens": {str(s): t for s, t in created.tokens.items()},
            "seats": [{"seat": i, **s} for i, s in enumerate(meta.seats)],
            "chance": meta.chance}
    if seed_chosen:  # a seed the service drew stays secret until the match ends
        data["seed"] = seed_text(meta.seed)
    data["seed_commitment"] = {"commitment": meta.seed_commitment or None,
                               "group": meta.seed_group or None}
    return data


def to_jsonl(record: dict) -> str:
    """A match record as JSON Lines: header, one line per move, then the result if any."""
    header = {"type": "match", **{k: v for k, v in record.items() if k not in ("moves", "result")}}
    lines = [header] + [{"type": "move", **m} for m in record["moves"]]
    if record["result"] is not None:
        lines.append({"type": "result", **record["result"]})
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
