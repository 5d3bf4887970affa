"""Match state on a real local Redis Cluster (3 primaries, 3 replicas; REFEREE_STORE_URL) while
queues and coordination stay on REDIS_URL: matches run across the shards, a Redis Cluster
refuses any command whose keys are in two slots (CROSSSLOT), so every commit, index write and
archive move is checked for being single-slot, and a manual failover mid-match loses nothing."""

from __future__ import annotations

import os
import shutil
import time

import pytest

from tests.conftest import built_app, organiser_client
from tests.support.rediscluster import LocalCluster

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None,
                                reason="needs Debian's redis-server")


@pytest.fixture(scope="module")
def cluster():
    """The local cluster, for this module."""
    local = LocalCluster().start()
    yield local
    local.stop()


@pytest.fixture(params=[0, 1000], ids=["no-wait", "wait"])
def cluster_app(cluster, needs_real_redis, request):
    """An app whose match state is on the cluster, queues on the real Redis; without and with
    a replica's acknowledgement of each commit (REFEREE_STORE_WAIT_MS)."""
    with built_app(needs_real_redis, STORE_URL=cluster.url,
                   STORE_WAIT_MS=request.param) as app:
        yield app


def _create(client, seats, seed):
    r = client.post("/v1/matches", json={"game": "gops", "seats": seats, "seed": seed})
    assert r.status_code == 201, r.json
    return r.json


def _until_over(client, ids, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = [client.get(f"/v1/matches/{m}").json for m in ids]
        if all(s["status"] == "over" for s in states):
            return states
        time.sleep(0.05)
    raise AssertionError([s["status"] for s in states])


def _play_remote(client, body):
    """Play remote seat 0 with its first legal move each turn; the versions acknowledged."""
    token, acked = body["tokens"]["0"], []
    headers = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        prompt = client.get(f"/v1/matches/{body['id']}/prompt?wait=5", headers=headers).json
        if prompt.get("status", "active") != "active" or not prompt.get("must_act", True):
            match = client.get(f"/v1/matches/{body['id']}").json
            if match["status"] != "active":
                return acked
            continue
        r = client.post(f"/v1/matches/{body['id']}/moves", headers=headers,
                        json={"move": prompt["legal_moves"][0],
                              "expected_version": prompt["version"]})
        if r.status_code == 200:
            acked.append((r.json["version"], prompt["legal_moves"][0]))
    raise AssertionError("the match did not finish")


def test_matches_run_across_the_shards_of_a_cluster(cluster_app, cluster):
    """Bots-only and remote-seat matches finish, their keys spread over the primaries,
    listed and counted through the index shards."""
    client = organiser_client(cluster_app)
    service = cluster_app.extensions["referee"]
    bots = [_create(client, ["builtin:random"] * 3, s)["id"] for s in range(8)]
    remote = _create(client, ["remote", "builtin:random"], 99)
    acked = _play_remote(client, remote)
    over = _until_over(client, [*bots, remote["id"]])
    assert all(m["result"]["termination"] == "rules" for m in over) and acked
    data = service.store.data
    primaries = {data.get_node_from_key(service.store.key(m, "live")).port for m in bots}
    assert len(primaries) >= 2
    assert set(service.store.list_ids(0, 100)) == {*bots, remote["id"]}
    assert service.store.count() == 9 and service.store.automated_ids() == []
    log = service.store.log(remote["id"])
    assert all(log[version - 1]["move"] == move for version, move in acked)


def test_a_failover_mid_match_loses_no_acknowledged_move(cluster_app, cluster):
    """CLUSTER FAILOVER on the replica of a match's primary while the match is played: every
    move the API acknowledged is in the log afterwards, and every match finishes."""
    client = organiser_client(cluster_app)
    service = cluster_app.extensions["referee"]
    body = _create(client, ["remote", "builtin:random"], 7)
    bots = [_create(client, ["builtin:random"] * 4, s)["id"] for s in range(20, 26)]
    primary = service.store.data.get_node_from_key(service.store.key(body["id"], "live")).port
    replica = next(p for p in cluster.ports if p != primary and
                   cluster.node(p).info("replication").get("master_port") == primary)
    token = {"Authorization": f"Bearer {body['tokens']['0']}"}
    prompt = client.get(f"/v1/matches/{body['id']}/prompt?wait=5", headers=token).json
    first = client.post(f"/v1/matches/{body['id']}/moves", headers=token,
                        json={"move": prompt["legal_moves"][0],
                              "expected_version": prompt["version"]})
    assert first.status_code == 200
    cluster.node(replica).execute_command("CLUSTER", "FAILOVER")
    # the replica takes over once it has caught up with its primary: seconds alone, but two
    # full-suite runs on a loaded 2-core machine (load 7-15) saw it take over 20 s
    deadline = time.monotonic() + 60
    while cluster.roles().get(replica) != "master" and time.monotonic() < deadline:
        time.sleep(0.1)
    assert cluster.roles()[replica] == "master"
    cluster.wait_ok()
    acked = [(first.json["version"], prompt["legal_moves"][0]), *_play_remote(client, body)]
    over = _until_over(client, [body["id"], *bots])
    assert all(m["status"] == "over" for m in over)
    log = service.store.log(body["id"])
    for version, move in acked:
        assert log[version - 1]["move"] == move, (version, log[version - 1])
    durable = getattr(service.store._commit, "unacknowledged", None)
    assert durable in (None, 0)   # with WAIT on, a replica acknowledged every commit


def test_the_readme_deployment_with_match_state_on_the_cluster(cluster, needs_real_redis):
    """The README's gunicorn command and a `referee worker`, queues on the real Redis and
    match state on the cluster (REFEREE_STORE_URL): bot matches and a remote seat's match
    finish, and the matches are listed."""
    import requests

    from tests.conftest import delete_keys, unique_name
    from tests.service.test_deployment import _play_against_bots, _readme_gunicorn
    from tests.support.http import BIN, free_port, start_process, stop_process, wait_for_http

    port, prefix, queue = free_port(), unique_name("cdep"), unique_name("cdepq")
    env = {"REDIS_URL": needs_real_redis, "REFEREE_STORE_URL": cluster.url,
           "REFEREE_PREFIX": prefix, "REFEREE_QUEUE": queue}
    worker = start_process([f"{BIN}/referee", "worker", "--name", f"{queue}-w"], env_extra=env)
    api = start_process(_readme_gunicorn(port), env_extra=env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(f"{base}/v1/health", proc=api)
        key = os.environ["REFEREE_ORGANISER_KEY"]
        matches = [_play_against_bots(base, ["builtin:random"] * 3, s, key) for s in range(4)]
        matches.append(_play_against_bots(base, ["remote", "builtin:random"], 9, key))
        assert all(m["status"] == "over" for m in matches)
        listed = requests.get(f"{base}/v1/matches?limit=50").json()
        assert {m["id"] for m in matches} <= {m["id"] for m in listed["matches"]}
    finally:
        outputs = [stop_process(p) for p in (api, worker)]
        delete_keys(needs_real_redis, prefix, queue)
    assert not any("Traceback" in out for out in outputs), outputs
