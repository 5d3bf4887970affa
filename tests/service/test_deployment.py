"""The deployments the README documents, run for real: `referee serve` (embedded), and
gunicorn + two `referee worker` processes + a real Redis."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import time

import redis
import requests

from referee.bench.servers import server_at
from referee.gunicorn_conf import default_workers
from tests.conftest import delete_keys, unique_name
from tests.support.docs import page
from tests.support.http import (BIN, free_port, serve_embedded, serve_gunicorn, start_process,
                                stop_process, wait_for_http)


def _play_against_bots(base: str, seats, seed: int, key: str | None = None) -> dict:
    """Create a match over HTTP (with the account `key`, if given), play remote seat 0 with
    its first legal move, return it."""
    session = requests.Session()
    account = {"Authorization": f"Bearer {key}"} if key else {}
    body = session.post(f"{base}/v1/matches", json={"game": "gops", "seats": seats,
                                                    "seed": seed}, headers=account).json()
    headers = {"Authorization": f"Bearer {body['tokens']['0']}"} if "0" in body["tokens"] else {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if headers:
            prompt = session.get(f"{base}/v1/matches/{body['id']}/prompt?wait=5",
                                 headers=headers).json()
            if prompt["must_act"]:
                r = session.post(f"{base}/v1/matches/{body['id']}/moves",
                                 json={"move": prompt["legal_moves"][-1]}, headers=headers)
                assert r.status_code == 200, r.json()
        match = session.get(f"{base}/v1/matches/{body['id']}").json()
        if match["status"] != "active":
            return match
        if not headers:
            time.sleep(0.05)
    raise AssertionError(f"match {body['id']} did not finish")


def _follow_events(base: str, seats, seed: int, key: str) -> dict:
    """Create a match (with the account `key`) and follow it on GET …/events to its `over`:
    one `version` event per version from the first one seen; returns the match as GET shows
    it then."""
    session = requests.Session()
    body = session.post(f"{base}/v1/matches", json={"game": "gops", "seats": seats,
                                                    "seed": seed},
                        headers={"Authorization": f"Bearer {key}"}).json()
    versions, over = [], None
    with session.get(f"{base}/v1/matches/{body['id']}/events", stream=True,
                     timeout=(5, 60)) as response:
        assert response.headers["Content-Type"].startswith("text/event-stream")
        for line in response.iter_lines(chunk_size=None, decode_unicode=True):
            if line.startswith("id: "):
                event_id = int(line[4:])
            elif line == "event: over":
                over = event_id
            elif line == "event: version":
                versions.append(event_id)
    match = session.get(f"{base}/v1/matches/{body['id']}").json()
    assert versions == list(range(versions[0], match["version"] + 1)) and over == versions[-1]
    return match


def test_referee_serve_embedded_plays_a_match():
    """`referee serve` with no REDIS_URL: a person plays a bot through HTTP to the end."""
    proc, base = serve_embedded()
    try:
        health = requests.get(f"{base}/v1/health").json()
        assert health["store"] == "embedded"
        match = _play_against_bots(base, ["remote", "builtin:random"], 3)
        assert match["status"] == "over" and match["result"]["termination"] == "rules"
        bots_only = _play_against_bots(base, ["builtin:random"] * 3, 4)
        assert bots_only["status"] == "over"
    finally:
        output = stop_process(proc)
    assert "embedded in-process store" in output
    assert "requests from this machine (loopback) need no key" in output


def _readme_gunicorn(port: int) -> list[str]:
    """The README's gunicorn command, as written there, on `port` instead of 8000."""
    text = page("deployment")
    line = re.search(r"^\.venv/bin/gunicorn (?:.*\\\n)*.*$", text, re.M).group(0)
    args = shlex.split(line.replace("\\\n", " "))
    assert args[0] == ".venv/bin/gunicorn" and "-b" in args, args
    args[0], args[args.index("-b") + 1] = f"{BIN}/gunicorn", f"127.0.0.1:{port}"
    return args


def test_the_readme_deployment_on_real_redis(needs_real_redis):
    """The README's gunicorn command as written (one gevent worker per CPU, at least two) +
    two `referee worker` processes sharing a real Redis; no anonymous writes, and the first
    organiser key comes from `referee keys create`."""
    redis_url = needs_real_redis
    port, prefix, queue = free_port(), unique_name("dep"), unique_name("depq")
    env = {"REDIS_URL": redis_url, "REFEREE_PREFIX": prefix, "REFEREE_QUEUE": queue,
           "REFEREE_ORGANISER_KEY": ""}
    workers = [start_process([f"{BIN}/referee", "worker", "--name", f"{queue}-w{i}"],
                             env_extra=env) for i in range(2)]
    api = start_process(_readme_gunicorn(port), env_extra=env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(f"{base}/v1/health", proc=api)
        assert server_at(base).workers == default_workers() >= 2
        assert requests.get(f"{base}/v1/health").json()["store"] == "redis"
        anonymous = requests.post(f"{base}/v1/matches", json={"game": "gops",
                                                              "seats": ["remote"] * 2})
        assert (anonymous.status_code, anonymous.json()["code"]) == (401, "auth.key_missing")
        made = subprocess.run([f"{BIN}/referee", "keys", "create", "--role", "organiser",
                               "--name", "ops"], capture_output=True, text=True, timeout=60,
                              env={**os.environ, **env})
        assert made.returncode == 0, made.stderr
        key = made.stdout.strip()
        assert key.startswith("rk_") and "organiser" in made.stderr
        assert redis.Redis.from_url(redis_url).keys(f"{prefix}:acct-key:*")
        assert key.encode() not in b"".join(
            redis.Redis.from_url(redis_url).get(k) or b""
            for k in redis.Redis.from_url(redis_url).keys(f"{prefix}:acct:*"))
        matches = [_play_against_bots(base, ["builtin:random"] * 4, s, key) for s in range(6)]
        matches.append(_play_against_bots(base, ["remote", "builtin:random"], 9, key))
        matches.append(_follow_events(base, ["builtin:random"] * 3, 10, key))
        assert all(m["status"] == "over" for m in matches)
        client = redis.Redis.from_url(redis_url)
        names = {n.decode() for n in client.smembers(f"rq:workers:{queue}")}
        assert names == {f"rq:worker:{queue}-w0", f"rq:worker:{queue}-w1"}
        done = sum(int(client.hget(n, "successful_job_count") or 0) for n in names)
        assert done >= 8
        assert sum(client.zcard(k) for k in client.scan_iter(f"{prefix}:ix:*:matches")) == 8
    finally:
        outputs = [stop_process(p) for p in [api, *workers]]
        delete_keys(redis_url, prefix, queue)
    assert not any("Traceback" in out for out in outputs), outputs


def test_gevent_worker_holds_150_polls_and_answers_them_all(needs_real_redis):
    """The README's server model, one gevent worker: 150 held GET /prompt?wait= on one match
    (more than the Redis pool's 100 connections) all answer 200 when the match changes, and
    a request in between is answered at once (a held wait costs no thread)."""
    from concurrent.futures import ThreadPoolExecutor

    redis_url = needs_real_redis
    prefix, queue = unique_name("gev"), unique_name("gevq")
    api, base = serve_gunicorn(REDIS_URL=redis_url, REFEREE_PREFIX=prefix, REFEREE_QUEUE=queue,
                               REFEREE_WAITS_PER_CALLER="200")
    try:
        organiser = {"Authorization": f"Bearer {os.environ['REFEREE_ORGANISER_KEY']}"}
        body = requests.post(f"{base}/v1/matches", json={"game": "dschunke", "seed": 11,
                                                         "seats": ["remote"] * 3},
                             headers=organiser).json()
        url, tokens = f"{base}/v1/matches/{body['id']}", body["tokens"]
        auth = {s: {"Authorization": f"Bearer {t}"} for s, t in tokens.items()}
        with ThreadPoolExecutor(150) as pool:
            polls = [pool.submit(requests.get, f"{url}/prompt?wait=30",
                                 headers=auth[str(1 + i % 2)], timeout=60) for i in range(150)]
            time.sleep(2.0)
            assert requests.get(f"{base}/v1/health", timeout=5).status_code == 200
            assert not any(p.done() for p in polls)
            prompt = requests.get(f"{url}/prompt", headers=auth["0"]).json()
            requests.post(f"{url}/moves", headers=auth["0"],
                          json={"move": prompt["legal_moves"][0]}).raise_for_status()
            answers = [p.result() for p in polls]
        assert [a.status_code for a in answers] == [200] * 150
        assert {a.json()["version"] for a in answers} == {1}
    finally:
        output = stop_process(api)
        delete_keys(redis_url, prefix, queue)
    assert "Traceback" not in output, output
