"""End of the round: the Inspector, presents, income and gaps, the new turn order, converting
income, both end conditions, the final scoring tables and the tie-breaks."""

from __future__ import annotations

import pytest

from referee.games.yunnan import GAME, board, scoring, upkeep
from referee.games.yunnan.data import GORGE_INDEX, PROVINCES
from tests.games.yunnan.helpers import code_of, new, play, put

Y, S, K, T, Q = PROVINCES


def board_state(players=3, grey=None, **options):
    s = new(players, **options)
    s["grey"] = grey if grey is not None else list(range(board.participants(s)))
    return s


# ---- the Province Inspector ---------------------------------------------------------------

@pytest.mark.parametrize("name, placing, influence, teahouse, where, banished", [
    ("highest_revenue_province", {0: {S: 2}, 1: {K: 1}}, [0, 0, 0], None, S, 0),
    ("tie_goes_to_the_farthest", {0: {S: 4}, 1: {K: 3}}, [0, 0, 0], None, K, 1),
    ("highest_influence_banished", {0: {K: 1}, 1: {K: 1}}, [1, 3, 0], None, K, 1),
    ("influence_tie_earlier_on_grey", {1: {K: 1}, 2: {K: 1}}, [0, 2, 2], None, K, 2),
    ("influence_4_is_immune", {0: {K: 1}, 1: {K: 1}}, [1, 4, 0], None, K, 0),
    ("own_teahouse_protects", {0: {K: 1}, 1: {K: 1}}, [1, 3, 0], (K, 1), K, 0),
    ("everyone_immune_nobody_goes", {1: {K: 2}}, [0, 4, 0], None, K, None),
    ("posts_count_for_revenue", {0: {S: 1}, 2: {Y: 1}}, [0, 0, 0], None, S, 0),
], ids=lambda v: v if isinstance(v, str) else "")
def test_inspector(name, placing, influence, teahouse, where, banished):
    s = board_state(grey=[2, 1, 0] if name == "influence_tie_earlier_on_grey" else [0, 1, 2])
    for p, where_ in placing.items():
        put(s, p, where_)
    if name == "posts_count_for_revenue":
        s["posts"][1][1] = 1  # Sichuan: 2 x 6 = 12 beats Yunnan 4
    s["influence"] = influence
    if teahouse:
        s["teahouses"][PROVINCES.index(teahouse[0])] = teahouse[1]
    before = [list(t) for t in s["traders"]]
    upkeep.inspector(s)
    assert s["report"]["inspector"]["province"] == where
    assert s["report"]["inspector"]["banished"] == banished
    if banished is not None:
        i = PROVINCES.index(where)
        assert s["traders"][banished][i] == before[banished][i] - 1
        assert s["market"][banished] == 1


# ---- presents -----------------------------------------------------------------------------

@pytest.mark.parametrize("name, placing, influence, grey, presents, gifts", [
    ("one_per_trader", {0: {T: 2}}, [0, 0, 0], [0, 1, 2], 3, [2, 0, 0]),
    ("influence_first", {0: {Q: 1}, 1: {Q: 2}}, [0, 1, 0], [0, 1, 2], 2, [0, 2, 0]),
    ("tie_round_robin_in_turn_order", {0: {K: 2}, 1: {K: 2}, 2: {K: 1}}, [1, 1, 0], [1, 0, 2],
     3, [1, 2, 0]),
    ("round_robin_then_lower_level", {0: {S: 1}, 1: {S: 1}, 2: {S: 3}}, [1, 1, 0], [0, 1, 2],
     4, [1, 1, 2]),
], ids=lambda v: v if isinstance(v, str) else "")
def test_presents(name, placing, influence, grey, presents, gifts):
    s = board_state(grey=grey)
    for p, where in placing.items():
        put(s, p, where)
    s["influence"] = influence
    i = PROVINCES.index(next(iter(next(iter(placing.values())))))
    s["presents"][i] = presents
    upkeep.presents(s)
    assert s["gifts"] == gifts
    assert s["presents"][i] == presents - sum(gifts)


# ---- income -------------------------------------------------------------------------------

@pytest.mark.parametrize("name, traders, posts, bridges, income", [
    ("province_values", {Y: 1, S: 2}, (), (), 4 + 12),
    ("market_pays_3_in_total", {"market": 3, Y: 1}, (), (), 3 + 4),
    ("gap_costs_3_per_trader", {Y: 1, K: 2}, (), (), 4 + 2 * (8 - 3)),
    ("two_gaps", {K: 1}, (), (), 8 - 6),
    ("post_with_a_gap_earns_nothing", {Y: 1}, (K,), (), 4),
    ("post_fills_a_gap", {Y: 1, K: 1}, (S,), (), 4 + 6 + 8),
    ("bridge_bypasses_a_gap", {Y: 1, K: 1}, (K,), ("yunnan-kang",), 4 + 8 + 8),
    ("blocked_bridge_does_not", {Y: 1, K: 1}, (), ("yunnan-kang", "blocked"), 4 + 5),
    ("revenue_never_below_zero", {Q: 1}, (), (), 0),
], ids=lambda v: v if isinstance(v, str) else "")
def test_income(name, traders, posts, bridges, income):
    s = put(board_state(), 0, traders)
    for where in posts:
        s["posts"][0][PROVINCES.index(where)] = 1
    for gorge in bridges:
        if gorge == "blocked":
            s["blocker"] = s["bridges"][0][0]
        else:
            s["bridges"][0].append(GORGE_INDEX[gorge])
    assert board.income(s, 0) == income


# ---- turn order and conversion ------------------------------------------------------------

@pytest.mark.parametrize("incomes, grey, new_grey", [
    ([10, 20, 5], [0, 1, 2], [1, 0, 2]),
    ([10, 10, 5], [0, 1, 2], [1, 0, 2]),   # tie: 1 placed its marker later, on top
    ([10, 10, 10], [2, 0, 1], [1, 0, 2]),
], ids=["by_income", "tie_stack_top_first", "three_way_tie"])
def test_turn_order_by_income_with_the_stack_tie_break(incomes, grey, new_grey, monkeypatch):
    s = board_state(grey=grey)
    monkeypatch.setattr(board, "income", lambda st, p: incomes[p])
    upkeep.income_and_order(s)
    assert s["grey"] == new_grey


def test_convert_any_part_of_the_round_income():
    s = board_state()
    s["phase"], s["step"], s["actor"], s["cursor"] = "convert", "convert", 0, 0
    s["income"] = [12, 0, 5]
    s["vp"], s["coins"] = [0, 0, 0], [1, 1, 1]
    assert len(GAME.legal_moves(s, 0)) == 13
    assert code_of(s, {"type": "convert", "points": 13}) == "move.illegal.convert.too_much"
    s = play(s, {"type": "convert", "points": 7})
    assert s["vp"][0] == 7 and s["coins"][0] == 1 + 5
    assert s["actor"] == 2  # seat 1 had no income to convert


# ---- game end and scoring -----------------------------------------------------------------

@pytest.mark.parametrize("options, vp, presents, over", [
    ({}, [80, 0, 0], [0, 1, 0, 0, 0], True),
    ({}, [79, 0, 0], [0, 1, 0, 0, 0], False),
    ({}, [0, 0, 0], [0, 0, 0, 0, 0], True),
    ({"double_bidding": True}, [95, 0, 0], [0, 1, 0, 0, 0], False),
    ({"guards": True}, [95, 0, 0], [0, 1, 0, 0, 0], False),
    ({"guards": True}, [5, 0, 0], [0, 0, 0, 0, 0], True),
], ids=["80_vp", "79_vp", "no_presents", "expert_double_no_vp_end", "expert_guards_no_vp_end",
        "expert_presents_end"])
def test_end_conditions(options, vp, presents, over):
    s = board_state(**options)
    s["vp"], s["presents"] = vp, presents
    assert upkeep.game_over(s) is over


def test_final_scoring_tables():
    s = board_state()
    s["vp"], s["coins"], s["gifts"] = [40, 0, 0], [17, 0, 0], [2, 0, 0]
    s["passes"][0], s["influence"][0], s["horse"][0] = 5, 2, 3
    s["teahouses"] = [0, None, 0, None, None]
    parts = scoring.breakdown(s, 0)
    assert parts == {"track": 40, "coins": 5, "presents": 6, "passes": 9, "influence": 4,
                     "teahouses": 1 + 6, "horse": 9, "total": 40 + 5 + 6 + 9 + 4 + 7 + 9}


@pytest.mark.parametrize("influence, grey, ranks", [
    ([1, 2, 0], [0, 1, 2], (2, 1, 3)),      # equal VP: more influence wins
    ([2, 2, 0], [1, 0, 2], (2, 1, 3)),      # still tied: earlier in turn order
])
def test_final_tie_breaks(influence, grey, ranks):
    s = board_state(grey=grey)
    s["influence"] = influence
    s["vp"] = [30, 30, 29 - 1]  # influence VP differ: compensate on the track
    s["vp"][0] += scoring.breakdown(s, 1)["influence"] - scoring.breakdown(s, 0)["influence"]
    s["phase"], s["actor"] = "over", None
    s["final"] = scoring.final_scores(s)
    assert s["final"][0]["total"] == s["final"][1]["total"]
    assert GAME.outcome(s).ranks == ranks


def test_game_plays_to_the_end_by_80_vp_or_presents():
    from referee.core.playout import random_playout
    _, s, _ = random_playout(GAME, 3, {}, 11)
    assert s["phase"] == "over"
    assert max(s["vp"]) >= 80 or not any(s["presents"])
    _, s, _ = random_playout(GAME, 3, {"guards": True}, 11)
    assert not any(s["presents"])


def test_guards_leave_the_game_at_the_end_of_the_round():
    s = board_state(guards=True)
    s["guards"], s["guard_spent"] = [2, None, None], [True, False, False]
    s["yard"][0]["guard"] = 0
    s["blocker"] = 1
    upkeep.prepare_round(s)
    assert s["guards"] == [None, None, None] and s["guard_spent"][0]
    assert s["blocker"] is None and s["yard"][0]["guard"] == 0
