"""The Docker deployment (issue 15 item 10): the compose file is valid where a compose CLI
exists, one image is built once and used by every service, containers reach bots on the
host, nothing runs as root, dependencies sit in a layer of their own, and the build context
leaves out virtualenvs, secrets and VCS data."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from tests.packaging.test_dependencies import ROOT

COMPOSE = ROOT / "docker-compose.yml"


def _compose_cli() -> list[str] | None:
    """`docker compose` (the v2 plugin), else `docker-compose`, else None. Neither needs a
    Docker engine for `config`: it only reads, interpolates and validates the file."""
    if shutil.which("docker"):
        done = subprocess.run(["docker", "compose", "version"], capture_output=True, timeout=30)
        if done.returncode == 0:
            return ["docker", "compose"]
    return ["docker-compose"] if shutil.which("docker-compose") else None


def _services() -> dict[str, str]:
    """Each service's block of the compose file, by name (the file's own layout: two-space
    service names under `services:`)."""
    text = COMPOSE.read_text()
    body = text.split("\nservices:\n", 1)[1].split("\nvolumes:", 1)[0]
    parts = re.split(r"^  ([\w-]+):\s*$", body, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2]))


def test_docker_compose_config_validates():
    """`docker compose config` accepts the file; with the v2 CLI its resolved form shows one
    build, one image for api and worker, and the host gateway mapping."""
    cli = _compose_cli()
    if cli is None:
        pytest.skip("no compose CLI here: `docker compose version` fails (the compose plugin "
                    "is not installed) and there is no docker-compose")
    done = subprocess.run([*cli, "-f", str(COMPOSE), "config", "-q"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    resolved = subprocess.run([*cli, "-f", str(COMPOSE), "config", "--format", "json"],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
    if resolved.returncode != 0:  # docker-compose v1 has no --format
        return
    services = json.loads(resolved.stdout)["services"]
    assert [name for name, s in services.items() if "build" in s] == ["api"]
    assert services["api"]["image"] == services["worker"]["image"]
    for name in ("api", "worker"):
        assert services[name]["restart"] == "unless-stopped"
        assert any("host.docker.internal" in h and "host-gateway" in h
                   for h in _hosts(services[name].get("extra_hosts")))


def _hosts(extra) -> list[str]:
    if isinstance(extra, dict):
        return [f"{k}:{v}" for k, v in extra.items()]
    return list(extra or [])


def test_one_image_built_once_and_used_by_api_and_worker():
    """Only the api service builds; api, worker and the example bot run its image."""
    services = _services()
    assert [name for name, block in services.items() if "\n    build:" in block] == ["api"]
    for name in ("api", "worker", "bot"):
        assert "\n    image: referee:local\n" in services[name], name


def test_services_restart_and_reach_the_host():
    """Every long-running service restarts unless stopped; api and worker (which call bots)
    map host.docker.internal to the host, so bots served on the host can be reached."""
    services = _services()
    for name in ("redis", "api", "worker"):
        assert "\n    restart: unless-stopped" in services[name], name
    for name in ("api", "worker"):
        assert '"host.docker.internal:host-gateway"' in services[name], name


def test_dockerfile_installs_dependencies_first_and_runs_unprivileged():
    """Dependencies are installed before any source is copied (a source change reuses that
    layer); the project is a regular install; the image ends as a non-root USER."""
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()]
    deps = next(i for i, line in enumerate(lines) if "pip install -r" in line)
    copies = [i for i, line in enumerate(lines) if line.startswith("COPY ")]
    assert all(lines[i].startswith("COPY pyproject.toml") for i in copies if i < deps)
    assert any(i > deps for i in copies)
    assert not any("pip install -e" in line for line in lines)
    users = [i for i, line in enumerate(lines) if line.startswith("USER ")]
    runs = [i for i, line in enumerate(lines) if line.startswith("RUN ")]
    assert users and users[-1] > runs[-1] and lines[users[-1]].split()[1] not in ("root", "0")


def test_dockerignore_keeps_the_context_small_and_secret_free():
    """No .venv, secrets, .git or test output in the build context."""
    patterns = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")}
    assert {".venv", ".git", "**/*.secret", "**/__pycache__", ".pytest_cache", "build",
            "dist"} <= patterns
