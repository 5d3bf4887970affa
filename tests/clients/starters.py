"""The starter bots (clients/go, clients/typescript, clients/java): how each is built, unit
tested and started. Builds go to a cache folder that outlives the run (pytest's cache), so a
second run rebuilds nothing that did not change."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.clients.support import ROOT

CLIENTS = ROOT / "clients"
VECTORS = CLIENTS / "protocol" / "signature-vectors.json"
NICE = ["nice", "-n", "19"] if shutil.which("nice") else []
# builds and unit tests share two cores with the rest of the suite: never ahead of it


def run(args, cwd, env=None, timeout=240) -> str:
    """Run a build or test command; fail with its output if it fails."""
    done = subprocess.run(NICE + list(args), cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})
    assert done.returncode == 0, f"{args} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def need(tool: str) -> str:
    """The tool's path, or a skip naming what is missing (.ci/run installs it)."""
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} is not installed (.ci/run installs it from Debian's packages)")
    return path


class GoStarter:
    """Standard library only: `go test`, then `go build` into the cache."""

    src = CLIENTS / "go"

    def __init__(self, cache: Path):
        self.go = need("go")
        self.env = {"GOCACHE": str(cache / "gocache"), "GOFLAGS": "-mod=mod",
                    "GOPATH": str(cache / "gopath"), "GOTOOLCHAIN": "local"}
        self.binary = cache / "go-starter-bot"

    def unit_tests(self) -> str:
        return run([self.go, "test", "-count=1", "-v", "."], self.src, self.env)

    def build(self) -> list:
        run([self.go, "build", "-o", str(self.binary), "."], self.src, self.env)
        return [str(self.binary)]


class TypeScriptStarter:
    """`typescript` (and Node's types) from the npm registry, exactly as package-lock.json
    pins them, installed once into the cache (again only when the lock file changes); the
    sources are compiled from the checkout into the cache, and the compiled JS runs."""

    src = CLIENTS / "typescript"

    def __init__(self, cache: Path):
        self.node, npm = need("node"), need("npm")
        self.home = cache / "typescript"
        lock = (self.src / "package-lock.json").read_bytes()
        stamp = self.home / "installed.lock"
        if not stamp.exists() or stamp.read_bytes() != lock:
            self.home.mkdir(parents=True, exist_ok=True)
            for name in ("package.json", "package-lock.json"):
                shutil.copy(self.src / name, self.home / name)
            run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], self.home)
            stamp.write_bytes(lock)
        self.dist = self.home / "dist"
        modules = self.home / "node_modules"
        run([self.node, str(modules / "typescript" / "bin" / "tsc"), "-p", str(self.src),
             "--outDir", str(self.dist), "--typeRoots", str(modules / "@types")], self.src)

    def unit_tests(self) -> str:
        return run([self.node, "--test", str(self.dist / "signing.test.js")], self.src,
                   {"SIGNATURE_VECTORS": str(VECTORS)})

    def build(self) -> list:
        return [self.node, str(self.dist / "bot.js")]


class JavaStarter:
    """javac only (no Maven): the bot's classes, then the test main's, compiled into the
    cache; again only when a source changed (a digest of every .java file)."""

    src = CLIENTS / "java"

    def __init__(self, cache: Path):
        self.java, javac = need("java"), need("javac")
        home = cache / "java"
        self.main, self.test = home / "main", home / "test"
        sources = sorted((self.src / "src").rglob("*.java"))
        digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
        stamp = home / "sources.sha256"
        if not stamp.exists() or stamp.read_text() != digest:
            shutil.rmtree(home, ignore_errors=True)
            main = [str(p) for p in sources if "/src/main/" in str(p)]
            tests = [str(p) for p in sources if "/src/test/" in str(p)]
            run([javac, "-Xlint:all", "-Werror", "-d", str(self.main)] + main, self.src)
            run([javac, "-d", str(self.test), "-cp", str(self.main)] + tests, self.src)
            stamp.write_text(digest)

    def unit_tests(self) -> str:
        return run([self.java, "-cp", f"{self.main}{os.pathsep}{self.test}",
                    "referee.starter.SignatureTest", str(VECTORS)], self.src)

    def build(self) -> list:
        return [self.java, "-cp", str(self.main), "referee.starter.Bot"]


STARTERS = {"go": GoStarter, "typescript": TypeScriptStarter, "java": JavaStarter}
