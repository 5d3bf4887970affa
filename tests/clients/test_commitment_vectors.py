"""clients/protocol/commitment-vectors.json, the seed commitment's test vectors, is what the
service's own code computes, byte by byte as the README states it."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

from referee.service.seeds import commitment, verify
from tests.support.docs import page

PROTOCOL = Path(__file__).resolve().parents[2] / "clients" / "protocol"


def _generator():
    spec = importlib.util.spec_from_file_location("make_commitment_vectors",
                                                  PROTOCOL / "make_commitment_vectors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_file_is_what_the_generator_writes():
    """Regenerating changes nothing: the file is up to date with the code."""
    on_disk = json.loads((PROTOCOL / "commitment-vectors.json").read_text(encoding="utf-8"))
    assert on_disk == _generator().vectors()


def test_each_vector_matches_the_service_and_the_byte_rule():
    """Each message is digits, 0x3A, salt, in ASCII; its SHA-256 hex is the commitment, and
    the service's `commitment`/`verify` agree; one digit off does not verify."""
    data = json.loads((PROTOCOL / "commitment-vectors.json").read_text(encoding="utf-8"))
    assert len(data["vectors"]) >= 5
    for case in data["vectors"]:
        message = bytes.fromhex(case["message_hex"])
        assert message == (case["seed"] + ":" + case["salt"]).encode("ascii")
        assert message.count(b":") == 1 and len(case["salt"]) == 32
        assert hashlib.sha256(message).hexdigest() == case["commitment"]
        assert commitment(int(case["seed"]), case["salt"]) == case["commitment"]
        assert verify(case["commitment"], case["seed"], case["salt"])
        assert not verify(case["commitment"], int(case["seed"]) ^ 1, case["salt"])
    assert any(int(c["seed"]) > 2 ** 53 for c in data["vectors"])


def test_the_readme_example_is_a_vector():
    """The worked example in README "Fair seeds" is the file's seed-7 case."""
    readme = page("security")   # "Fair seeds", docs/security.md
    case = next(c for c in json.loads((PROTOCOL / "commitment-vectors.json").read_text(
        encoding="utf-8"))["vectors"] if c["seed"] == "7")
    assert case["commitment"] in readme and f'`{case["salt"]}`' in readme
