"""Retention: finished matches leave the hot store for the archive, which the log and match
routes still serve; the index is trimmed (issue 12: 31-39 KB in 4 keys with no TTL)."""

from __future__ import annotations

from tests.conftest import organiser_client

import time

from referee.service.worker import archive_finished
from tests.api.helpers import create, wait_until


def _hot_keys(service, match_id):
    return [k for k in service.store.redis.scan_iter(service.store.key(match_id, "*"))]


def test_a_finished_match_is_archived_after_retention_and_still_served(app):
    client = organiser_client(app)
    service = app.extensions["referee"]
    match_id = create(client, seats=("builtin:random", "builtin:random"))["id"]
    wait_until(lambda: client.get(f"/v1/matches/{match_id}").json["status"] == "over")
    before_log = client.get(f"/v1/matches/{match_id}/log").json
    before_match = client.get(f"/v1/matches/{match_id}").json
    hot = sum(service.store.redis.memory_usage(k) or 0 for k in _hot_keys(service, match_id))

    assert archive_finished(service) == 0            # within the retention period
    assert archive_finished(service, now=time.time() + 31 * 86_400) >= 1

    assert _hot_keys(service, match_id) == []
    assert match_id not in service.store.list_ids(0, 1000)
    archived = service.store.redis.memory_usage(service.store.archive.key(match_id))
    assert 0 < archived < hot
    service.store._meta_cache.clear()
    assert client.get(f"/v1/matches/{match_id}/log").json == before_log
    assert client.get(f"/v1/matches/{match_id}").json == before_match
    jsonl = client.get(f"/v1/matches/{match_id}/log?format=jsonl")
    assert jsonl.status_code == 200 and jsonl.data.count(b"\n") == len(before_log["moves"]) + 2
