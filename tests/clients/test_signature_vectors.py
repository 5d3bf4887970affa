"""clients/protocol/signature-vectors.json, which every starter's tests read, is what the
service's own signing code (arena.protocol.signature) gives for each vector's inputs."""

from __future__ import annotations

import json

from arena.protocol import signature
from tests.clients.starters import VECTORS


def test_every_vector_is_what_the_service_signs():
    document = json.loads(VECTORS.read_text(encoding="utf-8"))
    assert {"algorithm", "canonical", "vectors"} <= set(document)
    assert len(document["vectors"]) >= 3
    for v in document["vectors"]:
        given = v["signature"] if v["signature"].startswith("v1=") else "v1=" + v["signature"]
        assert signature(v["secret"], v["timestamp"], v["nonce"], v["body"].encode()) == given
