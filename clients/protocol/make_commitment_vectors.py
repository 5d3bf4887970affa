"""Write clients/protocol/commitment-vectors.json from the service's own commitment code
(referee.service.seeds.commitment), so any client can test its check of a revealed seed.

    .venv/bin/python clients/protocol/make_commitment_vectors.py
"""

from __future__ import annotations

import json
from pathlib import Path

from referee.core.rng import MAX_SEED
from referee.service.bigint import seed_text
from referee.service.seeds import commitment

OUT = Path(__file__).with_name("commitment-vectors.json")

# Fixed inputs: the smallest seed, a small one, the first integer JavaScript's JSON.parse
# rounds (2^53 + 1), the seed from issue 40 that a rounded parse broke, and the largest seed.
CASES = [
    (0, "00000000000000000000000000000000"),
    (7, "0123456789abcdef0123456789abcdef"),
    (2 ** 53 + 1, "ffffffffffffffffffffffffffffffff"),
    (7374513755567299596, "5f2b7c1e9a0d4c3b8e6f1a2d3c4b5a69"),
    (MAX_SEED, "a1b2c3d4e5f60718293a4b5c6d7e8f90"),
]


def vectors() -> dict:
    """The file's content: the rule in words, then each case with its bytes and digest."""
    cases = []
    for seed, salt in CASES:
        message = f"{seed_text(seed)}:{salt}".encode("ascii")
        cases.append({"seed": seed_text(seed), "salt": salt, "message_hex": message.hex(),
                      "commitment": commitment(seed, salt)})
    return {
        "algorithm": "SHA-256 over ASCII bytes; commitment = lowercase hex digest (64 chars)",
        "message": "the seed in decimal digits (no sign, no leading zeros, exactly the string "
                   "the service sends as `seed`), one ':' (0x3A), then the salt's 32 lowercase "
                   "hex digits; no terminator",
        "vectors": cases,
    }


if __name__ == "__main__":
    OUT.write_text(json.dumps(vectors(), indent=2) + "\n", encoding="utf-8")
