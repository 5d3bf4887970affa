"""HTTP move throughput, latency and server CPU per request, against a floor (issue 17).

Starts the README's deployment (gunicorn -c python:referee.gunicorn_conf -k gevent
--worker-connections 2000, a real Redis, rate limits off: `referee bench load` measures them)
on a free port unless --url is given, and beside it, with the same gunicorn options, the floor:
a bare Flask JSON endpoint (referee/bench/floor.py). For each client count, C client processes
(keep-alive connections, http.client) play the service: create a match of remote seats, GET the
prompt, POST a random legal move, repeat; and then the floor gets the same pairs of requests (a
GET, a POST). Both in one run, taking turns: each round's seconds are cut into --slices turns
of each, so that the machine's noise falls on both alike (a client goes on with the match it
was playing in its last turn, so the turns add no match creations to the service's figures; a
new match starts only when one ends). Prints validated (200) moves per second, p50/p99 of POST
/moves and GET /prompt, and the server processes' CPU per request (from /proc) for both, with
the ratio (the target, issue 45: at most 1.5x the floor's): each round's, and their median, the figure held
to the target (a round compares the two measured in turns, in the same spell of the machine's
noise; the ratio of the medians over all rounds, printed beside it, pairs figures from
different rounds).

    referee bench http [--game G] [--clients 1 8 32] [--seconds S] [--rounds R] [--slices K]
                       [--gunicorn-workers W] [--url URL] [--no-floor]

Why one module: one benchmark, read in the order it runs (the service's and the floor's
clients, the rounds in turns, the figures and the report); outside it only `main` and the
CPU_TARGET_X figure are used (by `bench targets`), and what the figures mean is the docstring
above."""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import random
import statistics
import time
from urllib.parse import urlsplit

from referee.bench import AUTH, KEY, Steal, interpreter, load_average, paired_ratios
from referee.bench import redisbench
from referee.bench.servers import (README_WORKERS, ClientFailed, client_process, delete_keys,
                                   gather, percentile, server_at, service_env, start_gunicorn,
                                   stop)

CPU_TARGET_X = 1.5
"""Issue 17's target: the service's server CPU per request at most this many times the
floor's."""


class Http:
    """One keep-alive connection; `call` answers (status, JSON body or None)."""

    def __init__(self, base: str):
        parts = urlsplit(base)
        self.host, self.port = parts.hostname, parts.port or 80
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def call(self, method: str, path: str, body=None, headers=None):
        """Send one request (reconnecting once if the server closed the connection)."""
        data = None if body is None else json.dumps(body)
        headers = {**(headers or {}), **({"Content-Type": "application/json"} if data else {})}
        for attempt in (0, 1):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
            except (http.client.RemoteDisconnected, ConnectionResetError,
                    http.client.CannotSendRequest, BrokenPipeError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                if attempt:
                    raise
        raise AssertionError("unreachable")


@client_process
def _service_client(base, game, players, start, seconds, seed, carried, out) -> None:
    """One client process: from `start` for `seconds`, play on the match `carried` over from
    the last turn (or None), starting a new one whenever it has none; send back the samples
    and the match still being played ("carry", None if it just ended)."""
    http, rng = Http(base), random.Random(seed)
    samples = {"moves": [], "prompts": [], "requests": 0, "rejected": 0}
    time.sleep(max(0.0, start - time.monotonic()))
    deadline, match = start + seconds, carried
    while time.monotonic() < deadline:
        if match is None:
            match = _new_match(http, game, players, rng, samples)
        match = _play(http, match, rng, samples, deadline)
    out.put({**samples, "carry": match})


def _new_match(http, game, players, rng, samples) -> dict:
    """A new match of remote seats: its id, each seat's headers, the seats to act."""
    status, body = http.call("POST", "/v1/matches", {
        "game": game, "seats": ["remote"] * players, "seed": rng.randrange(2**31)}, AUTH)
    samples["requests"] += 1
    if status != 201:
        raise ClientFailed(f"POST /v1/matches answered {status} {_problem(body)} (with "
                           f"--url, REFEREE_KEY must hold an organiser key of that service)")
    return {"id": body["id"], "to_act": ["0"],
            "headers": {s: {"Authorization": f"Bearer {t}"} for s, t in body["tokens"].items()}}


def _play(http, match, rng, samples, deadline) -> dict | None:
    """Prompt and move until the deadline or the match's end; the match (None once over)."""
    match_id, headers, to_act = match["id"], match["headers"], match["to_act"]
    while to_act and time.monotonic() < deadline:
        seat = to_act[0]
        began = time.perf_counter()
        _, prompt = http.call("GET", f"/v1/matches/{match_id}/prompt", headers=headers[seat])
        samples["prompts"].append(time.perf_counter() - began)
        samples["requests"] += 1
        if not prompt["must_act"]:
            _, state = http.call("GET", f"/v1/matches/{match_id}")
            samples["requests"] += 1
            to_act = [str(s["seat"]) for s in state["to_act"]]
            continue
        began = time.perf_counter()
        status, answer = http.call("POST", f"/v1/matches/{match_id}/moves", {
            "move": rng.choice(prompt["legal_moves"]), "expected_version": prompt["version"]},
            headers[seat])
        samples["requests"] += 1
        if status == 200:
            samples["moves"].append(time.perf_counter() - began)
            to_act = [str(s["seat"]) for s in answer["to_act"]]
        else:
            samples["rejected"] += 1
    return {**match, "to_act": to_act} if to_act else None


def _problem(body) -> str:
    """A refusal's code and detail (RFC 9457), or the start of whatever came instead."""
    if isinstance(body, dict) and "code" in body:
        return f"{body['code']}: {body.get('detail', '')}"
    return repr(body)[:200]


@client_process
def _floor_client(base, start, seconds, out) -> None:
    """One floor client: pairs of GET /floor/prompt and POST /floor/moves."""
    http = Http(base)
    samples = {"moves": [], "prompts": [], "requests": 0, "rejected": 0}
    time.sleep(max(0.0, start - time.monotonic()))
    version, deadline = 0, start + seconds
    while time.monotonic() < deadline:
        began = time.perf_counter()
        http.call("GET", "/floor/prompt")
        samples["prompts"].append(time.perf_counter() - began)
        began = time.perf_counter()
        status, answer = http.call("POST", "/floor/moves", {"move": {"type": "pass"},
                                                             "expected_version": version})
        samples["moves"].append(time.perf_counter() - began)
        samples["requests"] += 2
        version = answer["version"]
    out.put(samples)


def run(target: dict, clients: int, seconds: float, game: str, players: int,
        carried: list | None = None) -> dict:
    """C clients against one target ({"kind": "service"|"floor", "base", "server"}) for
    `seconds`, the service's playing on the matches `carried` over from its last turn; the
    samples (latencies, requests, refusals), the CPU seconds its measured processes used
    meanwhile, and the matches to carry on with ("carried")."""
    queue, start = multiprocessing.Queue(), time.monotonic() + 0.5
    carried = (carried or [])[:clients] + [None] * (clients - len(carried or []))
    if target["kind"] == "service":
        procs = [multiprocessing.Process(target=_service_client, args=(
            target["base"], game, players, start, seconds, random.getrandbits(32), match,
            queue)) for match in carried]
    else:
        procs = [multiprocessing.Process(target=_floor_client, args=(
            target["base"], start, seconds, queue)) for _ in range(clients)]
    for proc in procs:
        proc.start()
    time.sleep(max(0.0, start - time.monotonic()))
    cpu = {name: s.cpu_seconds() for name, s in target["measured"].items()}
    got = gather(queue, procs, seconds)
    cpu = {name: s.cpu_seconds() - cpu[name] for name, s in target["measured"].items()}
    return {"moves": [m for g in got for m in g["moves"]],
            "prompts": [p for g in got for p in g["prompts"]],
            "requests": sum(g["requests"] for g in got),
            "rejected": sum(g["rejected"] for g in got), "cpu": cpu, "seconds": seconds,
            "carried": [g.get("carry") for g in got]}


def figures(runs: list[dict]) -> dict:
    """The figures of one or more runs of a target taken together: moves per second, p50/p99
    latencies, requests and refusals, CPU per request of each measured process group."""
    moves = [m for r in runs for m in r["moves"]]
    prompts = [p for r in runs for p in r["prompts"]]
    requests_ = sum(r["requests"] for r in runs)
    cpu = {name: sum(r["cpu"][name] for r in runs) for name in runs[0]["cpu"]}
    return {"moves_per_s": len(moves) / sum(r["seconds"] for r in runs), "requests": requests_,
            "rejected": sum(r["rejected"] for r in runs),
            "move_p50": percentile(moves, 0.5), "move_p99": percentile(moves, 0.99),
            "prompt_p50": percentile(prompts, 0.5), "prompt_p99": percentile(prompts, 0.99),
            **{f"{name}_cpu_ms": 1000 * used / max(1, requests_) for name, used in cpu.items()}}


def _line(name: str, clients: int, r: dict) -> str:
    cpu = f"{r['server_cpu_ms']:6.3f} ms" if "server_cpu_ms" in r else "     n/a"
    redis = f"  Redis CPU/request {r['redis_cpu_ms']:.3f} ms" if "redis_cpu_ms" in r else ""
    return (f"{clients:>3} clients {name:<8} {r['moves_per_s']:>8.1f} moves/s  move p50 "
            f"{r['move_p50']:6.2f} ms p99 {r['move_p99']:6.2f} ms  prompt p50 "
            f"{r['prompt_p50']:6.2f} ms p99 {r['prompt_p99']:6.2f} ms  server CPU/request "
            f"{cpu}{redis}  ({r['requests']:.0f} requests, {r['rejected']:.0f} moves refused)")


def _targets(args) -> tuple[list[dict], list]:
    """The service (started, or at --url) and the floor; (targets, processes to stop)."""
    started, prefix = [], None
    base = args.url
    if base is None:
        env, prefix = service_env(args.redis_url, KEY)
        proc, base = start_gunicorn("referee.root:create_app()", args.gunicorn_workers, env)
        started.append(proc)
    service = server_at(base)
    redis = server_at("http://" + (urlsplit(args.redis_url).netloc or "127.0.0.1:6379"))
    measured = {"server": service} if service else {}
    if redis is not None:
        measured["redis"] = redis
    targets = [{"kind": "service", "name": "referee", "base": base, "server": service,
                "measured": measured, "prefix": prefix}]
    if not args.no_floor:
        workers = service.workers if service and args.url else args.gunicorn_workers
        proc, floor_base = start_gunicorn("referee.bench.floor:create_app()", workers, {})
        started.append(proc)
        floor = server_at(floor_base)
        targets.insert(0, {"kind": "floor", "name": "floor", "base": floor_base,
                           "server": floor, "measured": {"server": floor} if floor else {}})
    return targets, started


def main(argv=None) -> dict:
    """Print the service's and the floor's figures per client count, and the CPU ratio;
    return the ratios by client count (`cpu_ratios`; none with --no-floor)."""
    from referee.games import GAMES

    parser = argparse.ArgumentParser(prog="referee bench http", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default=(GAMES.names() or ["gops"])[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--slices", type=int, default=4,
                        help="turns the service and the floor take in each round's seconds")
    parser.add_argument("--gunicorn-workers", type=int, default=README_WORKERS)
    redisbench.add_argument(parser)
    parser.add_argument("--url", help="benchmark a running service instead of starting one")
    parser.add_argument("--no-floor", action="store_true", help="skip the bare Flask floor")
    args = parser.parse_args(argv)
    # a service given by --url runs on its own Redis: none is chosen or started here
    chosen = None if args.url else redisbench.choose(args.redis_url)
    args.redis_url, args.redis_origin = (chosen.url, chosen.describe()) if chosen else \
        (args.redis_url, "Redis: the running service's own")
    try:
        targets, started = _targets(args)
        try:
            return _report(args, targets)
        except ClientFailed as err:
            raise SystemExit(f"referee bench http: {err}") from None
        finally:
            for proc in started:
                stop(proc)
            if targets[-1]["prefix"] is not None:
                delete_keys(args.redis_url, targets[-1]["prefix"])
    finally:
        if chosen is not None:
            chosen.stop()


def _report(args, targets: list[dict]) -> dict:
    print(f"HTTP bench, game {args.game}, {args.players} remote seats, {args.seconds:.0f} s per "
          f"run, {args.rounds} round(s), on {args.redis_origin}; load average "
          f"{load_average()}", flush=True)
    print(f"  python: {interpreter()}", flush=True)
    steal = Steal()
    for t in targets:   # every worker booted before they are counted and measured
        if t["server"] is not None:
            t["server"].wait_idle()
    for t in targets:
        what = t["server"].describe() if t["server"] else "processes not on this machine " \
            "(no worker count, no CPU figure)"
        extra = f", Redis {args.redis_url}, rate limits off" if t["kind"] == "service" and \
            not args.url else ""
        print(f"  {t['name']}: {t['base']} ({what}{extra})", flush=True)
    for t in targets:   # warm: caches, connections
        run(t, 4, 2.0, args.game, args.players)
    results: dict = {}
    carried: dict = {}   # (target, clients): the matches its clients were playing
    for round_ in range(args.rounds):
        for clients in args.clients:
            # the service and the floor take turns, `slices` times a round: a spell of the
            # machine's noise (another process, the host) falls on both alike
            slices: dict = {t["name"]: [] for t in targets}
            for _ in range(args.slices):
                for t in targets:
                    done = run(t, clients, args.seconds / args.slices, args.game,
                               args.players, carried.get((t["name"], clients)))
                    carried[(t["name"], clients)] = done["carried"]
                    slices[t["name"]].append(done)
            for t in targets:
                r = figures(slices[t["name"]])
                results.setdefault((t["name"], clients), []).append(r)
                print(f"round {round_ + 1} " + _line(t["name"], clients, r), flush=True)
    return _summary(args, targets, results, steal)


def _summary(args, targets, results, steal: Steal) -> dict:
    """Print the medians and the CPU ratios; the ratios by client count."""
    print(f"medians over {args.rounds} round(s); load average {load_average()}; "
          f"{steal.describe()}")
    ratios = {}
    for clients in args.clients:
        meds = {t["name"]: {k: statistics.median(r[k] for r in results[(t["name"], clients)])
                            for k in results[(t["name"], clients)][0]} for t in targets}
        for name, m in meds.items():
            print(_line(name, clients, m))
        if "floor" in meds and "server_cpu_ms" in meds["floor"] and \
                "server_cpu_ms" in meds["referee"]:
            r = ratios[clients] = cpu_ratios(results[("referee", clients)],
                                             results[("floor", clients)])
            # quoted by `bench targets` beside the ratio (a figure without a target)
            r["p99_ms"] = {k: meds["referee"][f"{k}_p99"] for k in ("move", "prompt")}
            each = ", ".join(f"{x:.2f}" for x in r["each"])
            print(f"{clients:>3} clients: server CPU per request {r['paired']:.2f}x the floor's, "
                  f"the median of the rounds' ratios (target <= {CPU_TARGET_X:g}x; round by "
                  f"round {each}; the medians above give {r['of_medians']:.2f}x)")
    return ratios


def cpu_ratios(service_rounds: list[dict], floor_rounds: list[dict]) -> dict:
    """The service's server CPU per request over the floor's, round by round, their median
    and the ratio of the medians (`paired_ratios`)."""
    return paired_ratios([s["server_cpu_ms"] for s in service_rounds],
                         [f["server_cpu_ms"] for f in floor_rounds])



if __name__ == "__main__":
    main()
