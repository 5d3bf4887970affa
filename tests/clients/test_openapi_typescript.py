"""TypeScript generated from the service's OpenAPI documents is what a client can use (issue
40): the real openapi-typescript (pinned in tests/clients/openapi-ts/package-lock.json, `npm
ci` into pytest's cache, again only when the lock changes) types /v1/openapi.json and
/v1/bot-protocol/openapi.json, and `tsc --noEmit --strict` compiles check.ts against them: a
match of `{game, seats}`, a check of `{players, seed}`, a move, a view read as possibly null,
a bot's answer; and each `@ts-expect-error` there (`seats: [1]`, `move: null`, `{}` as a
seated move, …) must be an error, so the types refuse what the server refuses."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.clients.starters import NICE, need, run

KIT = Path(__file__).with_name("openapi-ts")
DOCUMENTS = {"api": "/v1/openapi.json", "bot": "/v1/bot-protocol/openapi.json"}


@pytest.fixture
def app(shared_app):
    """Only reads the documents: the module shares one app."""
    return shared_app


@pytest.fixture(scope="module")
def toolkit(request) -> Path:
    """node_modules with openapi-typescript and typescript exactly as the lock pins them."""
    need("node"), need("npm")
    home = request.config.cache.mkdir("openapi-ts")
    lock = (KIT / "package-lock.json").read_bytes()
    with open(home / "install.lock", "w") as mutex:   # one install at a time per cache
        fcntl.flock(mutex, fcntl.LOCK_EX)
        stamp = home / "installed.lock"
        if not stamp.exists() or stamp.read_bytes() != lock:
            for name in ("package.json", "package-lock.json"):
                shutil.copy(KIT / name, home / name)
            run([shutil.which("npm"), "ci", "--no-audit", "--no-fund", "--ignore-scripts"], home)
            stamp.write_bytes(lock)
    return home / "node_modules"


def _generate(modules: Path, client, folder: Path) -> str:
    """Each document written and typed into `<name>.d.ts` in `folder`; the tool's output."""
    said = []
    for name, path in DOCUMENTS.items():
        answer = client.get(path)
        assert answer.status_code == 200, path
        (folder / f"{name}.json").write_bytes(answer.data)
        said.append(run([shutil.which("node"), str(modules / "openapi-typescript" / "bin" /
                                                    "cli.js"),
                         f"{name}.json", "-o", f"{name}.d.ts"], folder))
    return "".join(said)


def _tsc(modules: Path, folder: Path) -> subprocess.CompletedProcess:
    """`tsc --noEmit --strict` of check.ts in `folder` (it imports ./api and ./bot)."""
    return subprocess.run(NICE + [
        shutil.which("node"), str(modules / "typescript" / "bin" / "tsc"), "--noEmit",
        "--strict", "--target", "es2022", "--module", "es2022", "--moduleResolution", "bundler",
        "check.ts"], cwd=folder, capture_output=True, text=True, timeout=300)


def test_generated_types_take_what_the_server_takes_and_refuse_the_rest(toolkit, client,
                                                                         tmp_path):
    """check.ts compiles: every request it builds type-checks, and every line marked
    `@ts-expect-error` is an error (an unused one fails the compile)."""
    said = _generate(toolkit, client, tmp_path)
    assert "error" not in said.lower(), said
    shutil.copy(KIT / "check.ts", tmp_path / "check.ts")
    done = _tsc(toolkit, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    generated = (tmp_path / "api.d.ts").read_text()
    assert "MatchCreate: {\n            game: string;\n" in generated   # the types were made

