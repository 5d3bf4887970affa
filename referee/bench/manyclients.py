"""The client processes of `referee bench many`: each creates its share of the matches, says
so, waits for the go, then polls each match's seat to act and posts a random legal move when it
must, replacing a match that ends so the number live stays the same."""

from __future__ import annotations

import queue
import random
import threading
import time

import requests

from referee.bench.servers import client_process


def _create(session, base, key, game, players, with_bots: bool) -> dict:
    """One match; (id, tokens, seat to act, version) as the client keeps it."""
    seats = ["remote"] + (["builtin:random"] if with_bots else ["remote"]) * (players - 1)
    r = session.post(f"{base}/v1/matches", json={"game": game, "seats": seats},
                     headers={"Authorization": f"Bearer {key}"}, timeout=30)
    r.raise_for_status()
    body = r.json()
    return {"id": body["id"], "tokens": body["tokens"], "bots": with_bots,
            "seat": str(body["to_act"][0]["seat"]) if body.get("to_act") else "0",
            "first": body.get("version", 0), "last": body.get("version", 0)}


def _step(session, base, match, rng, samples) -> bool:
    """Serve one match once: poll its seat to act, move if it must; False once it is over."""
    token = match["tokens"].get(match["seat"]) or match["tokens"]["0"]
    headers = {"Authorization": f"Bearer {token}"}
    start = time.perf_counter()
    answer = session.get(f"{base}/v1/matches/{match['id']}/prompt", headers=headers, timeout=30)
    samples.append(("prompt", time.perf_counter() - start, answer.status_code))
    prompt = answer.json()
    match["last"] = max(match["last"], prompt.get("version", 0))
    if prompt.get("status") != "active":
        return False
    if not prompt["must_act"]:
        start = time.perf_counter()
        answer = session.get(f"{base}/v1/matches/{match['id']}", timeout=30)
        samples.append(("match", time.perf_counter() - start, answer.status_code))
        state = answer.json()
        remote = [str(t["seat"]) for t in state.get("to_act", [])
                  if str(t["seat"]) in match["tokens"]]
        match["seat"] = remote[0] if remote else match["seat"]
        return state.get("status") == "active"
    start = time.perf_counter()
    r = session.post(f"{base}/v1/matches/{match['id']}/moves", headers=headers, timeout=30,
                     json={"move": rng.choice(prompt["legal_moves"]),
                           "expected_version": prompt["version"]})
    samples.append(("move", time.perf_counter() - start, r.status_code))
    if r.status_code == 200:
        body = r.json()
        match["last"] = body.get("version", match["last"])
        remote = [str(t["seat"]) for t in body.get("to_act", [])
                  if str(t["seat"]) in match["tokens"]]
        match["seat"] = remote[0] if remote else match["seat"]
    return True


def _serve(base, key, game, players, work, seed, deadline, samples, done) -> None:
    """One client thread: take a match, serve it once, put it back (or a new one if over)."""
    session, rng = requests.Session(), random.Random(seed)
    while time.monotonic() < deadline:
        try:
            match = work.get(timeout=0.2)   # more threads than matches: the rest wait
        except queue.Empty:
            continue
        if _step(session, base, match, rng, samples):
            work.put(match)
        else:
            done.append(match)
            work.put(_create(session, base, key, game, players, match["bots"]))


@client_process
def process(base, key, game, players, count, threads, seconds, seed, go, out) -> None:
    """Create this process's share of the matches, say so (their ids) and wait for `go`,
    then serve them for `seconds`."""
    session, work = requests.Session(), queue.Queue()
    for i in range(count):
        work.put(_create(session, base, key, game, players, with_bots=i % 2 == 1))
    out.put({"ready": [m["id"] for m in work.queue]})
    go.wait()
    samples: list = []
    done: list = []
    deadline = time.monotonic() + seconds
    pool = [threading.Thread(target=_serve, args=(base, key, game, players, work, seed + i,
                                                  deadline, samples, done))
            for i in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    held = list(work.queue) + done
    out.put({"samples": samples, "held": len(list(work.queue)),
             "matches": {m["id"]: (m["first"], m["last"]) for m in held}})
