"""Fixtures of the README tests."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support.http import free_port, stop_process, wait_for_http

REFEREE = os.path.join(os.path.dirname(sys.executable), "referee")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A `referee serve` on the embedded store (keyless local requests: the local organiser),
    one a module: its URL."""
    port = free_port()
    service = subprocess.Popen([REFEREE, "serve", "--port", str(port)],
                               cwd=tmp_path_factory.mktemp("serve"),
                               env={**os.environ, "REDIS_URL": ""}, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(f"{url}/v1/health", timeout=60, proc=service)
        yield url
    finally:
        stop_process(service)
