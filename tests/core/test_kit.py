"""The game kit: derived legal_moves, apply (copy once, never mutate), dispatch, rule errors."""

from __future__ import annotations

import json

import pytest

from referee.core import GameSpec, IllegalMove, MoveKind, NotYourTurn, UnexpectedMove, engine
from referee.core import kit as kit_mod
from referee.core.kit import game as kit_game, listing as kit_listing
from referee.core.kit import (ALIKE, CHECKED, LEGAL, DecisionKind, KitGame, Rule,
                              audit_listing, one, rule_error)
from referee.core.playout import random_playout
from tests.support.gops import GAME, Gops


def fresh(players=2, options=None, seed=1):
    """A new test-game state."""
    return engine.start(GAME, players, options, seed)[1]


def award_state(players=3):
    """A state where seat 0 has won the prize and must keep or give it."""
    state = fresh(players)
    state["winner"], state["bids"] = 0, [None] * players
    return state


# -- rule_error ---------------------------------------------------------------------------

ERROR_CASES = [
    # code given, rule override, expected code, expected message
    ("give.target", None, "move.illegal.give.target", "rule 'give': m"),
    ("load", None, "move.illegal.load", "rule 'load': m"),
    ("move.illegal.swap", None, "move.illegal.swap", "rule 'swap': m"),
    ("bid.space", "space", "move.illegal.bid.space", "rule 'space': m"),
    ("yard.guard_place", "guards", "move.illegal.yard.guard_place", "rule 'guards': m"),
]


@pytest.mark.parametrize("code, rule, expected_code, expected_message", ERROR_CASES)
def test_rule_error_codes_and_messages(code, rule, expected_code, expected_message):
    """One constructor gives the codes and messages the three games produce today."""
    err = rule_error(code, "m", rule=rule, seat=2)
    assert isinstance(err, IllegalMove)
    assert (err.code, err.message, err.details) == (expected_code, expected_message, {"seat": 2})


# -- derived legal_moves --------------------------------------------------------------------

def test_legal_moves_are_exactly_the_candidates_the_check_accepts():
    """Over whole playouts, every candidate is listed iff its rule's check accepts it."""
    for seed in range(5):
        _, _, log = random_playout(GAME, 3, None, seed)
        state = fresh(3, seed=seed)
        for seat, move in log:
            assert all(audit_listing(GAME, state, s) == [] for s in range(3))
            state = GAME.apply(state, seat, move)


def test_listing_order_is_rule_order_then_candidate_order():
    """Keep comes before the gives, gives by seat: the order bots and replays depend on."""
    assert GAME.legal_moves(award_state(), 0) == [
        {"type": "keep"}, {"type": "give", "to": 1}, {"type": "give", "to": 2}]
    assert GAME.legal_moves(award_state(), 1) == []


def counting(listing):
    """Gops whose give rule lists seats 0..players (self and one too many included) with
    `listing`, and counts its checks in `checks`."""
    keep, give = GAME.decisions[1].rules
    checks = []

    def check(s, seat, move):
        checks.append(move)
        give.check(s, seat, move)

    gifts = lambda s, seat: [{"type": "give", "to": t} for t in range(s["players"] + 1)]
    award = DecisionKind("award", (keep, Rule("give", check, give.play, gifts, listing)))
    game = type("Counting", (Gops,), {"decisions": (GAME.decisions[0], award)})()
    return game, checks


def test_checked_trusted_and_alike_listings():
    """CHECKED filters each candidate; LEGAL lists as built; ALIKE lets the first decide."""
    state = award_state(3)  # candidates give to 0 (self), 1, 2, 3 (no such seat)
    expected = {CHECKED: ([None, 1, 2], 4), LEGAL: ([None, 0, 1, 2, 3], 0),
                ALIKE: ([None], 1)}  # ALIKE: the first candidate (to 0) fails, so all do
    for listing, (listed, checked) in expected.items():
        game, checks = counting(listing)
        assert [m.get("to") for m in game.legal_moves(state, 0)] == listed
        assert len(checks) == checked


def test_audit_finds_a_false_trusted_listing():
    """The audit reports trusted moves the check refuses: a game's tests catch the lie."""
    problems = audit_listing(counting(LEGAL)[0], award_state(3), 0)
    assert len(problems) == 1 and "listed but refused" in problems[0]
    assert audit_listing(counting(CHECKED)[0], award_state(3), 0) == []


def test_apply_still_checks_a_trusted_rule():
    """A trusted listing never lets an illegal submitted move through apply."""
    with pytest.raises(IllegalMove) as info:
        counting(LEGAL)[0].apply(award_state(3), 0, {"type": "give", "to": 0})
    assert info.value.code == "move.illegal.give.target"


def test_checking_a_candidate_does_not_copy(monkeypatch):
    """legal_moves never copies the state; apply copies exactly once; a refused move never."""
    calls = []
    real = kit_game.json_copy
    monkeypatch.setattr(kit_game, "json_copy", lambda data: calls.append(1) or real(data))
    state = fresh(3)
    assert len(GAME.legal_moves(state, 0)) == 4 and calls == []
    GAME.apply(state, 0, {"type": "bid", "card": 2})
    assert len(calls) == 1
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"type": "bid", "card": 9})
    assert len(calls) == 1


def test_apply_never_mutates_its_input_and_settles():
    """The input state is untouched; settle resolves the round once the last bid is in."""
    state = fresh(2)
    before = json.dumps(state, sort_keys=True)
    one_bid = GAME.apply(state, 0, {"type": "bid", "card": 4})
    assert json.dumps(state, sort_keys=True) == before
    both = GAME.apply(one_bid, 1, {"type": "bid", "card": 1})
    assert one_bid["bids"] == [4, None]
    assert both["winner"] == 0 and both["last"] == [4, 1] and both["bids"] == [None, None]


# -- dispatch -------------------------------------------------------------------------------

def test_dispatch_errors_match_the_engine_codes():
    """Called directly, a kit game answers as the engine would: no move.illegal.turn."""
    with pytest.raises(NotYourTurn):
        GAME.apply(award_state(), 1, {"type": "keep"})
    with pytest.raises(UnexpectedMove) as info:
        GAME.apply(award_state(), 0, {"type": "bid", "card": 1})
    assert info.value.details == {"decision": "award", "accepted": ["keep", "give"]}


def test_pending_comes_from_the_declaration():
    """Move types, sealed and prompt of each decision are derived from the declared kinds."""
    assert [d.to_dict() for d in GAME.pending(award_state())] == [
        {"seat": 0, "kind": "award", "move_types": ["keep", "give"], "sealed": False,
         "prompt": {"prize": sum(award_state()["prize"])}}]
    assert {(d.kind, d.sealed) for d in GAME.pending(fresh(3))} == {("bid", True)}


def test_pending_is_worked_out_once_per_state_and_anew_for_each_state(monkeypatch):
    """The runner, the engine and the service each ask about the same state: the prompts are
    built once for it; a following state (and an equal copy) gets its own decisions."""
    calls = []
    game = Gops()
    original = game.prompt
    monkeypatch.setattr(game, "prompt", lambda *a: calls.append(a) or original(*a))
    state = award_state()
    first = game.pending(state)
    assert game.pending(state) is first and len(calls) == 1
    after = game.apply(state, 0, {"type": "keep"})
    assert [d.kind for d in game.pending(after)] == ["bid"] * 3 and len(calls) == 4
    assert game.pending(award_state()) == first and len(calls) == 5


def test_the_last_few_states_are_known_again_and_no_more_are_kept(monkeypatch):
    """A worker interleaves a few matches: the decisions of each of the last RECENT states
    asked about are worked out once, in any order; an older one is worked out again, and the
    game keeps no more than RECENT states alive."""
    calls = []
    game = Gops()
    original = game.awaiting
    monkeypatch.setattr(game, "awaiting", lambda s: calls.append(s) or original(s))
    states = [fresh(3, seed=seed) for seed in range(kit_mod.RECENT + 1)]
    for state in states[:kit_mod.RECENT]:
        game.pending(state)
    decided = {id(s): game.pending(s) for s in reversed(states[:kit_mod.RECENT])}
    assert len(calls) == kit_mod.RECENT   # each once, asked again in another order
    game.legal_moves(states[0], 0)        # the awaiting entries are remembered alike
    assert len(calls) == kit_mod.RECENT
    game.pending(states[-1])              # one more: the oldest is let go
    assert len(game._recent) == kit_mod.RECENT
    assert all(entry[0] is not states[0] for entry in game._recent)
    assert game.pending(states[0]) == decided[id(states[0])]
    assert len(calls) == kit_mod.RECENT + 2


def test_the_stored_dict_is_the_state_and_to_dict_a_copy():
    """stored (the live record's state) shares a kit state; to_dict still copies."""
    state = fresh(2)
    assert GAME.stored(state) is state
    copied = GAME.to_dict(state)
    assert copied == state and copied is not state


class OpenTypes(Gops):
    """Gops where the award may only be kept: awaiting names the open move types."""

    def awaiting(self, state):
        return [(seat, kind, ("keep",)) if kind == "award" else (seat, kind)
                for seat, kind in super().awaiting(state)]


def test_awaiting_can_close_some_move_types():
    """A decision can take fewer types than declared (an option closes a rule)."""
    game = OpenTypes()
    assert game.pending(award_state())[0].move_types == ("keep",)
    assert game.legal_moves(award_state(), 0) == [{"type": "keep"}]
    with pytest.raises(UnexpectedMove):
        game.apply(award_state(), 0, {"type": "give", "to": 1})


def dry_give(s, seat, move, dry):
    """A gops give in the single-handler idiom."""
    if move["to"] == seat or move["to"] >= s["players"]:
        raise rule_error("give.target", "not another seat")
    if dry:
        return
    s["scores"][move["to"]] += sum(s["prize"])
    s["winner"], s["prize"] = None, []


class DryHandler(Gops):
    """The award declared with one dry-run handler and decision-level candidates."""

    decisions = (GAME.decisions[0], DecisionKind(
        "award", (GAME.decisions[1].rules[0], Rule.dry("give", dry_give)),
        candidates=lambda s, seat: [{"type": "give", "to": 2}, {"type": "keep"},
                                    {"type": "give", "to": 0}]))


def test_dry_handlers_and_decision_level_candidates():
    """Rule.dry checks by a dry run; a kind's own candidates set the listing order."""
    game, state = DryHandler(), award_state()
    assert game.legal_moves(state, 0) == [{"type": "give", "to": 2}, {"type": "keep"}]
    assert game.apply(state, 0, {"type": "give", "to": 2})["scores"][2] == sum(state["prize"])
    with pytest.raises(IllegalMove, match="rule 'give': not another seat"):
        game.apply(state, 0, {"type": "give", "to": 0})
    assert state["winner"] == 0


def test_declarations_are_checked_when_the_class_is_defined():
    """Undeclared move types, duplicates and rules that list nothing fail at import."""
    spec = GameSpec("t", "t", 1, 2, "1", moves=(MoveKind("a", "a"),))
    rule = Rule("a", lambda *a: None, lambda *a: None, one("a"))
    cases = [
        (DecisionKind("k", (Rule("b", rule.check, rule.play, one("b")),)),), "undeclared",
        (DecisionKind("k", (rule,)), DecisionKind("k", (rule,))), "twice",
        (DecisionKind("k", (rule, rule)),), "two 'a' rules",
        (DecisionKind("k", (Rule("a", rule.check, rule.play),)),), "no candidates",
    ]
    for decisions, message in zip(cases[::2], cases[1::2]):
        with pytest.raises(ValueError, match=message):
            type("Bad", (KitGame,), {"spec": spec, "decisions": decisions})
    with pytest.raises(ValueError, match="listing"):
        Rule("a", rule.check, rule.play, one("a"), "maybe")


def returned_refusal(s, seat, move):
    """A give check in the 'return the problem' idiom (Yunnan's bid_problem)."""
    if move["to"] == seat:
        return rule_error("give.target", "not yourself")
    return None


class ReturnsRefusal(Gops):
    """The give rule's check returns its refusal instead of raising it."""

    decisions = (GAME.decisions[0], DecisionKind("award", (
        GAME.decisions[1].rules[0],
        Rule("give", returned_refusal, GAME.decisions[1].rules[1].play,
             lambda s, seat: [{"type": "give", "to": t} for t in range(s["players"])]))))


def test_a_check_may_return_its_refusal():
    """A returned rule_error refuses the move in the listing and in apply."""
    game, state = ReturnsRefusal(), award_state(2)
    assert game.legal_moves(state, 0) == [{"type": "keep"}, {"type": "give", "to": 1}]
    with pytest.raises(IllegalMove, match="rule 'give': not yourself"):
        game.apply(state, 0, {"type": "give", "to": 0})


# -- listing asks only yes or no -------------------------------------------------------------

def gated(gate):
    """Gops whose give rule has `gate` (seats 0..players listed, as in `counting`)."""
    keep, give = GAME.decisions[1].rules
    built = []

    def gifts(s, seat):
        built.append(seat)
        return [{"type": "give", "to": t} for t in range(s["players"] + 1)]
    award = DecisionKind("award", (keep, Rule("give", give.check, give.play, gifts, gate=gate)))
    return type("Gated", (Gops,), {"decisions": (GAME.decisions[0], award)})(), built


def test_a_closed_gate_skips_building_and_checking_its_candidates():
    """A gate saying False leaves its rule's candidates unbuilt; apply still checks alone."""
    state = award_state(3)
    game, built = gated(lambda s, seat: False)
    assert game.legal_moves(state, 0) == [{"type": "keep"}] and built == []
    assert game.apply(state, 0, {"type": "give", "to": 1})["winner"] is None
    game, built = gated(lambda s, seat: True)
    assert [m.get("to") for m in game.legal_moves(state, 0)] == [None, 1, 2] and built == [0]


def test_audit_finds_a_gate_that_closes_on_legal_moves():
    """The audit checks a closed gate's candidates too: a game's tests catch a false gate."""
    problems = audit_listing(gated(lambda s, seat: False)[0], award_state(3), 0)
    assert len(problems) == 1 and "accepted by check but not listed" in problems[0]
    assert audit_listing(gated(lambda s, seat: True)[0], award_state(3), 0) == []


def test_a_refusal_while_listing_is_the_shared_one_and_in_full_otherwise():
    """Inside legal_moves/accepts rule_error gives the one shared refusal (nobody reads it);
    outside, and after a listing (also one that raised), the full error again."""
    seen = []

    def check(s, seat, move):
        seen.append(rule_error("give.target", f"seat {move['to']}", to=move["to"]))
        return seen[-1] if move["to"] == 0 else None
    keep, give = GAME.decisions[1].rules
    award = DecisionKind("award", (keep, Rule("give", check, give.play, one("give", to=0))))
    game = type("Seen", (Gops,), {"decisions": (GAME.decisions[0], award)})()
    assert game.legal_moves(award_state(3), 0) == [{"type": "keep"}]
    assert seen == [kit_listing._REFUSED] and seen[0].__traceback__ is None
    assert not kit_mod.accepts(award.rules[1], award_state(3), 0, {"type": "give", "to": 0})
    assert seen[-1] is kit_listing._REFUSED and not kit_listing._listing.depth
    full = rule_error("give.target", "m")
    assert full is not kit_listing._REFUSED and full.message == "rule 'give': m"
    broken = DecisionKind("award", (keep, Rule("give", lambda s, seat, m: 1 / 0, give.play,
                                               one("give", to=1))))
    game = type("Broken", (Gops,), {"decisions": (GAME.decisions[0], broken)})()
    with pytest.raises(ZeroDivisionError):
        game.legal_moves(award_state(3), 0)
    assert not kit_listing._listing.depth and rule_error("give.target", "m") is not kit_listing._REFUSED
