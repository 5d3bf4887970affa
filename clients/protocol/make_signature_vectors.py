"""Write clients/protocol/signature-vectors.json from the service's own signing code
(arena.protocol.signature), so every starter's tests check against what the service sends.

    .venv/bin/python clients/protocol/make_signature_vectors.py
"""

from __future__ import annotations

import json
from pathlib import Path

from arena.protocol import signature

OUT = Path(__file__).with_name("signature-vectors.json")

# Fixed inputs (no randomness: the file must not change when regenerated). They cover a
# realistic move body, an empty body (/end answers may be tiny, bodies never are, but the
# canonical string must still end in "."), non-ASCII UTF-8 in the body, and a secret in the
# service's own "bs_" + urlsafe-base64 form used as raw UTF-8 bytes, never decoded.
CASES = [
    ("bs_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG", "1765000000", "a1b2c3d4e5f6a7b8c9d0e1f2",
     '{"apiversion":"1","match":"m1","game":"yunnan","seat":0,"legal_moves":[{"type":"pass"}]}'),
    ("bs_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG", "1765000001", "000000000000000000000000",
     ""),
    ("bs_-_secret-with_urlsafe-chars", "1765003600", "ffffffffffffffffffffffff",
     '{"name":"Y\u00ednzi: Ming","note":"\u4e91\u5357"}'),
    ("short", "0", "n", "{}"),
]


def main() -> None:
    vectors = [{"secret": s, "timestamp": t, "nonce": n, "body": b,
                "signature": signature(s, t, n, b.encode("utf-8"))} for s, t, n, b in CASES]
    document = {
        "algorithm": "HMAC-SHA256, key = the secret's UTF-8 bytes; header value 'v1=' + "
                     "lowercase hex digest",
        "canonical": "timestamp + '.' + nonce + '.' + body (the raw body bytes, UTF-8)",
        "vectors": vectors,
    }
    OUT.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
