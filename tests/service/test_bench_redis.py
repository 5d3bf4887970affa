"""`referee bench …` names the Redis it uses in its first line and never writes to database 0
of a Redis it did not start unless told to (issue 38): by default it starts its own."""

from __future__ import annotations

import re
import subprocess
import sys

import redis

from referee.bench import redisbench


def test_a_url_given_with_redis_url_is_used_as_told_whatever_its_database():
    chosen = redisbench.choose("redis://127.0.0.1:6379/0", environ={})
    assert (chosen.url, chosen.process) == ("redis://127.0.0.1:6379/0", None)
    assert chosen.describe() == "Redis redis://127.0.0.1:6379/0 (given by --redis-url)"


def test_redis_url_is_used_when_it_names_a_database_other_than_0():
    chosen = redisbench.choose(None, environ={"REDIS_URL": "redis://10.0.0.5:6379/4"})
    assert (chosen.url, chosen.process) == ("redis://10.0.0.5:6379/4", None)
    assert "REDIS_URL, database 4" in chosen.describe()


def test_database_0_of_a_redis_it_did_not_start_is_left_alone(needs_real_redis):
    """REDIS_URL on database 0 (or none at all): a redis-server of its own, on another port,
    that answers while in use and is gone afterwards."""
    for environ in ({"REDIS_URL": needs_real_redis.rsplit("/", 1)[0] + "/0"}, {}):
        with redisbench.choose(None, environ=environ) as chosen:
            assert chosen.process is not None and chosen.url != environ.get("REDIS_URL")
            assert "started by this benchmark" in chosen.describe()
            with redis.Redis.from_url(chosen.url) as client:
                assert client.ping()
        assert chosen.process.poll() is not None


def test_database_numbers_are_read_from_the_path_or_the_query():
    assert [redisbench.database(u) for u in ("redis://h:1", "redis://h:1/", "redis://h:1/7",
                                             "redis://h:1?db=3", "unix:///tmp/r.sock?db=2")
            ] == [0, 0, 7, 3, 2]


def test_bench_load_names_the_redis_it_started_in_its_first_line(needs_real_redis):
    """The README's `referee bench load`, small, with REDIS_URL naming database 0 of the
    test Redis: it starts its own and says so first."""
    env = {"REDIS_URL": needs_real_redis.rsplit("/", 1)[0] + "/0", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "referee.cli", "bench", "load", "--clients",
                           "1", "--seconds", "0.5"], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    first = done.stdout.splitlines()[0]
    found = re.search(r"on Redis redis://127\.0\.0\.1:(\d+)/0 \(started by this benchmark, "
                      r"pid \d+, redis-server [\d.]+; REDIS_URL names database 0 of a Redis "
                      r"this benchmark did not start\)", first)
    assert found and f":{found.group(1)}/" not in needs_real_redis, first
