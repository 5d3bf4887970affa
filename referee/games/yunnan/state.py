"""The state document: its schema (shapes and ranges) and the invariants `from_dict` checks.

The state is a plain JSON-able dict (see `flow.setup` for every key). The schema says what
each field holds; `check_state` says what a schema cannot: lengths per player count (seats,
or participants with Dúlì), the phase and its pending step agreeing, every participant's
traders and every seat's structures adding up, presents conserved, Dúlì's 16 cards.
"""

from __future__ import annotations

from referee.core.statecheck import (boolean, enum, integer, list_of, nat, nullable, record,
                                     state_error)
from referee.games.yunnan.data import (BIDDABLE, BUILDABLE, DULI_CARD_IDS,
                                       DULI_MAX_TEAHOUSES, DULI_POSTS, DULI_TRADERS, GORGES,
                                       GUARD, GUARDS, INFLUENCE_MAX, INFLUENCE_MIN, MAX_TRADERS,
                                       NPROV, PASSES_MAX, PASSES_MIN, PRESENTS, PROVINCES,
                                       SPACES, STABLES, STRUCTURES, TOP)
from referee.games.yunnan.spec import OPTIONS, SPEC

PHASES = ("bidding", "resolution", "travel", "convert", "over")
STEP_PHASE = {"bid": "bidding", "resolve": "resolution", "block": "resolution",
              "yard": "resolution", "travel": "travel", "journey": "travel",
              "displace": "travel", "convert": "convert"}
"""Each pending decision kind (the state's `step`) and the phase it belongs to."""

_PROVINCE = nat(TOP)
_GORGE = nat(len(GORGES) - 1)
_CARD = {"type": "integer", "enum": list(DULI_CARD_IDS)}  # typed: True == 1 in an enum
_PER_PROVINCE = list_of(nat(), NPROV)
_OPTION = {"bool": boolean()}
_DULI_BID = record(card=_CARD, bid=enum(*BIDDABLE), space=nat())
_DULI_NO_BID = record(card={"type": ["integer", "null"], "enum": [*DULI_CARD_IDS, None]},
                      bid=enum(None))  # card None: no card turned (option duli_no_bid)
_DULI_TRAVEL = record(card=_CARD, teahouse=nullable(enum(*PROVINCES)), placed=_PER_PROVINCE,
                      displaced=list_of(record(owner=nat(), **{"from": enum(*PROVINCES)})))
REPORT = record(
    bank=nullable(record(total_bid=nat(), payout=nat(), bankers=list_of(nat()))),
    duli=list_of({"oneOf": [_DULI_BID, _DULI_NO_BID, _DULI_TRAVEL]}),
    displaced=list_of(record(by=nat(), owner=nat(), **{"from": enum(*PROVINCES)})),
    inspector=nullable(record(province=enum(*PROVINCES), revenue=nat(),
                              banished=nullable(nat()))),
    presents=nullable(list_of(nat())),
    income=nullable(list_of(nullable(nat()))))
_BREAKDOWN = record(track=nat(), coins=nat(), presents=nat(), passes=nat(), influence=nat(),
                    teahouses=nat(), horse=nat(), total=nat())

SCHEMA = record(
    n=integer(SPEC.min_players, SPEC.max_players), duli=nullable(nat()),
    options=record(**{o.name: _OPTION.get(o.kind) or enum(*o.choices) for o in OPTIONS}),
    seed=integer(), round=integer(1), phase=enum(*PHASES),
    step=nullable(enum(*STEP_PHASE)), actor=nullable(nat()), cursor=nat(),
    blue=list_of(nat()), grey=list_of(nat()), passed=list_of(boolean()),
    coins=list_of(nat()), vp=list_of(nat()), income=list_of(nullable(nat())),
    passes=list_of(integer(PASSES_MIN, PASSES_MAX)), horse=list_of(integer(STABLES, TOP)),
    influence=list_of(integer(INFLUENCE_MIN, INFLUENCE_MAX)),
    supply=list_of(nat()), reserve=list_of(nat()), market=list_of(nat()),
    traders=list_of(_PER_PROVINCE), posts=list_of(list_of(nat(1), NPROV)),
    bridges=list_of(list_of(_GORGE, unique=True)),
    teahouses=list_of(nullable(nat()), NPROV),
    stock=list_of(record(**{k: nat() for k in BUILDABLE})),
    yard=list_of(record(**{k: nat() for k in (*BUILDABLE, GUARD)})),
    guards=list_of(nullable(_PROVINCE)), guard_spent=list_of(boolean()),
    bids=record(**{b: list_of(nullable(nat()), len(SPACES[b])) for b in BIDDABLE}),
    bank=list_of(nat(), unique=True), blocker=nullable(_GORGE),
    presents=list_of(nat(), NPROV), gifts=list_of(nat()), yard_left=nat(),
    journey=nullable(record(at=_PROVINCE, visited=list_of(_PROVINCE, min_items=1,
                                                          unique=True))),
    arrived=_PER_PROVINCE, passes_used=nat(), displace_at=nullable(_PROVINCE),
    duli_cards=nullable(record(deck=list_of(_CARD), discard=list_of(_CARD),
                               shown=list_of(_CARD), shuffles=nat())),
    report=REPORT, previous=nullable(REPORT), final=nullable(list_of(_BREAKDOWN)))
"""The state's JSON Schema: every key, its type and its range."""


def check_state(s) -> None:
    """Raise InvalidState (with the field's path) unless `s`'s fields agree with each other."""
    n = s["n"]
    if s["duli"] != (n if n == 2 else None):
        raise state_error("$.duli", f"Dúlì plays (as participant {n}) exactly in 2-player "
                          f"games; {n} players need {n if n == 2 else None}")
    total = n + (1 if s["duli"] is not None else 0)
    _check_lengths(s, n, total)
    _check_flow(s, n, total)
    _check_owners(s, n, total)
    _check_traders(s, total)
    _check_structures(s, n)
    _check_presents(s)
    _check_duli(s)


def _length(s, key: str, size: int, who: str) -> None:
    if len(s[key]) != size:
        raise state_error(f"$.{key}", f"needs one entry per {who} ({size}), has {len(s[key])}")


def _check_lengths(s, n: int, total: int) -> None:
    for key in ("coins", "vp", "income", "passes", "horse", "stock", "yard", "guards",
                "guard_spent"):
        _length(s, key, n, "seat")
    for key in ("passed", "influence", "supply", "reserve", "market", "traders", "posts",
                "bridges", "gifts"):
        _length(s, key, total, "participant")
    if sorted(s["blue"]) != list(range(total)):
        raise state_error("$.blue", f"must order every participant 0..{total - 1} once")
    if s["grey"] and sorted(s["grey"]) != list(range(total)):
        raise state_error("$.grey", "must be empty or order every participant once")


def _check_flow(s, n: int, total: int) -> None:
    phase, step = s["phase"], s["step"]
    if s["cursor"] > total:
        raise state_error("$.cursor", f"past the {total} participants of the turn order")
    if phase == "over":
        for key in ("step", "actor"):
            if s[key] is not None:
                raise state_error(f"$.{key}", "a finished game has no pending decision")
        if s["final"] is None or len(s["final"]) != n:
            raise state_error("$.final", f"a finished game has one score per seat ({n})")
        return
    if s["final"] is not None:
        raise state_error("$.final", "only a finished game has final scores")
    if step is None or STEP_PHASE[step] != phase:
        raise state_error("$.step", f"{step!r} is not a decision of the {phase} phase")
    if phase in ("travel", "convert") and not s["grey"]:
        raise state_error("$.grey", f"the {phase} phase follows the grey track")
    if s["actor"] is None or s["actor"] >= n:
        raise state_error("$.actor", f"the actor must be a seat (0..{n - 1})")
    if phase == "travel" and s["passes_used"] > s["passes"][s["actor"]]:
        raise state_error("$.passes_used", "more Border Passes used than the traveller has")
    if (s["journey"] is not None) != (step == "journey"):
        raise state_error("$.journey", "a journey is under way exactly at a journey step")
    if s["journey"] is not None and s["journey"]["visited"][-1] != s["journey"]["at"]:
        raise state_error("$.journey.at", "the trader is in the last province it entered")
    if (s["displace_at"] is not None) != (step == "displace"):
        raise state_error("$.displace_at", "set exactly at a displace step")
    if (s["yard_left"] > 0) != (step == "yard"):
        raise state_error("$.yard_left", "structures are left to take exactly at a yard step")
    if step == "convert" and s["income"][s["actor"]] is None:
        raise state_error("$.income", "the seat converting has a round income")


def _check_owners(s, n: int, total: int) -> None:
    for b in BIDDABLE:
        for i, owner in enumerate(s["bids"][b]):
            if owner is not None and owner >= total:
                raise state_error(f"$.bids.{b}[{i}]", f"participant {owner} is not at this table")
    for i, owner in enumerate(s["teahouses"]):
        if owner is not None and owner >= total:
            raise state_error(f"$.teahouses[{i}]", f"participant {owner} is not at this table")
    for i, seat in enumerate(s["bank"]):
        if seat >= n:
            raise state_error(f"$.bank[{i}]", f"only seats (0..{n - 1}) use the Bank")
    for p, guard in enumerate(s["guards"]):
        if guard is not None and not s["guard_spent"][p]:
            raise state_error(f"$.guard_spent[{p}]", "a placed Guards marker is spent")


def _check_traders(s, total: int) -> None:
    for p in range(total):
        count = (s["supply"][p] + s["reserve"][p] + s["market"][p] + sum(s["traders"][p])
                 + sum(row.count(p) for row in s["bids"].values()) + s["bank"].count(p))
        if s["journey"] is not None and s["actor"] == p:
            count += 1
        expected = DULI_TRADERS if p == s["duli"] else MAX_TRADERS
        if count != expected:
            raise state_error(f"$.supply[{p}]", f"participant {p} has {count} traders in "
                              f"all, not {expected}")


def _check_structures(s, n: int) -> None:
    for p in range(n):
        built = {"trading_post": sum(s["posts"][p]), "bridge": len(s["bridges"][p]),
                 "teahouse": s["teahouses"].count(p)}
        for kind in BUILDABLE:
            count = s["stock"][p][kind] + s["yard"][p][kind] + built[kind]
            if count != STRUCTURES[kind]:
                raise state_error(f"$.yard[{p}].{kind}", f"seat {p} has {count} {kind}(s) in "
                                  f"all, not {STRUCTURES[kind]}")
        guards = GUARDS if s["options"]["guards"] else 0
        if s["yard"][p][GUARD] + s["guard_spent"][p] != guards:
            raise state_error(f"$.yard[{p}].guard", f"seat {p} has {guards} Guards marker(s) "
                              f"in this game, in the Yard or spent")


def _check_presents(s) -> None:
    for i, left in enumerate(s["presents"]):
        if left > PRESENTS[i]:
            raise state_error(f"$.presents[{i}]", f"{PROVINCES[i]} starts with {PRESENTS[i]}")
    if sum(PRESENTS) - sum(s["presents"]) != sum(s["gifts"]):
        raise state_error("$.gifts", "presents handed out must equal presents gone")


def _check_duli(s) -> None:
    cards, d = s["duli_cards"], s["duli"]
    if d is None:
        if cards is not None:
            raise state_error("$.duli_cards", "no Dúlì cards without Dúlì")
        return
    if cards is None:
        raise state_error("$.duli_cards", "Dúlì needs her cards")
    if sorted(cards["deck"] + cards["discard"] + cards["shown"]) != sorted(DULI_CARD_IDS):
        raise state_error("$.duli_cards", "must be exactly her 16 cards")
    if s["posts"][d] != [1 if i in DULI_POSTS else 0 for i in range(NPROV)]:
        raise state_error(f"$.posts[{d}]", "Dúlì's trading posts never move")
    if s["bridges"][d]:
        raise state_error(f"$.bridges[{d}]", "Dúlì builds no bridges")
    if s["teahouses"].count(d) > DULI_MAX_TEAHOUSES:
        raise state_error("$.teahouses", f"Dúlì has at most {DULI_MAX_TEAHOUSES} teahouses")
