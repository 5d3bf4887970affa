"""Rules 5 (issue 13, seat balance): the sixth Bonus register slot, Kiln Licence, and the tax
on Workshops that made a Good. Both are [C] decisions, quoted from rules.md Decisions
'Kiln Licence and a tax on output (rules 5)'."""

from __future__ import annotations

from pathlib import Path

from referee.games.yinzi_ming import data, scoring
from tests.games.yinzi_ming.yinzi_helpers import (GAME, act, add_workshop, at_directives,
                                                  clear_board, command, give, illegal, new,
                                                  play_until, through_placement, trade)

RULES_MD = Path(__file__).resolve().parents[3] / "seeds" / "yinzi-ming" / "rules.md"

KILN = ("[C] a sixth slot, Kiln Licence (its Crop tile costs 2 Sapeques): your first "
        "Workshop, if you build it this round, needs 1 Stone less")
TAX = ("[C] the Regulation tax is 1 Yinzi per Workshop that made a Good this round; an idle "
       "Workshop pays none")


def test_the_decisions_are_quoted_from_rules_md():
    """The two sentences these tests quote stand in the Decisions table, word for word."""
    decisions = RULES_MD.read_text(encoding="utf-8").replace("Yínzi", "Yinzi")
    assert KILN.removeprefix("[C] ") in decisions
    assert TAX.removeprefix("[C] ") in decisions


def test_kiln_licence_is_the_sixth_slot():
    """KILN: slot 6, after Tax Exemption, with its Crop tile at 2 and its text in the view's
    register and the described board."""
    s = at_directives(2)
    slot = GAME.view(s, 0)["register"][5]
    assert (slot["slot"], slot["name"], slot["cost"]) == (6, "Kiln Licence", 2)
    assert slot["effect"] == {"kind": "build_stone", "amount": 1}
    texts = {x["slot"]: x["text"] for x in GAME.board()["bonus_slots"]["value"]["value"]}
    assert texts[6] == "your first Workshop, if you build it this round, needs 1 Stone less"
    assert len(s["register"]) == 6


def _building(kiln: bool):
    """Round 1 Directives, the active seat with no Stone about to Build (3 lines); its Merchant
    on the Kiln Licence when `kiln`, else on slot 1."""
    s = at_directives()
    seat = s["active"]
    clear_board(s)
    for slot in s["register"]:
        slot["merchant"] = None
    s["register"][(data.KILN_SLOT if kiln else 1) - 1]["merchant"] = seat
    give(s, seat, stone=0)
    return command(s, "build", 3), seat


def test_kiln_licence_builds_a_first_workshop_without_stone():
    """KILN: with no Stone, the Merchant on the Kiln Licence builds a first Workshop (the
    build is among the legal moves); a second one, even in the same Command, needs Stone."""
    s, seat = _building(kiln=True)
    tile = s["display"][0]
    move = {"type": "build", "tile": tile, "fields": ["SZ1", "SZ2", "SZ3"]}
    assert move in GAME.legal_moves(s, seat)
    s = act(s, move)
    assert s["workshops"][tile]["owner"] == seat and s["seats"][seat]["stone"] == 0
    second = {"type": "build", "tile": s["display"][1], "fields": ["CZ1", "CZ2", "CZ3"]}
    illegal(s, second, "build.stone")
    give(s, seat, stone=1)
    s = act(s, second)
    assert s["seats"][seat]["stone"] == 0 and len(scoring.workshops_of(s, seat)) == 2


def test_kiln_licence_does_nothing_for_an_owner():
    """KILN: 'your first Workshop' — a seat that already owns one pays Stone as ever."""
    s, seat = _building(kiln=True)
    add_workshop(s, seat, s["workshop_deck"][0], ["TZ1", "TZ2", "TZ3"])
    illegal(s, {"type": "build", "tile": s["display"][0], "fields": ["SZ1", "SZ2", "SZ3"]},
            "build.stone")


def test_kiln_licence_keeps_stone_it_does_not_need():
    """KILN: 'needs 1 Stone less' — a player holding Stone keeps it."""
    s, seat = _building(kiln=True)
    give(s, seat, stone=2)
    s = act(s, {"type": "build", "tile": s["display"][0], "fields": ["SZ1", "SZ2", "SZ3"]})
    assert s["seats"][seat]["stone"] == 2


def test_without_the_kiln_licence_a_build_needs_stone():
    """KILN holds only for its Merchant: anyone else still pays 1 Stone."""
    s, seat = _building(kiln=False)
    illegal(s, {"type": "build", "tile": s["display"][0], "fields": ["SZ1", "SZ2", "SZ3"]},
            "build.stone")


def test_kiln_licence_lasts_only_its_round():
    """KILN: 'this round' — Maintenance returns the Merchant, and the next round's builds
    need Stone again unless the seat takes the slot again."""
    s = through_placement(new(2, 1))
    seat = s["active"]
    s = act(s, {"type": "merchant", "slot": data.KILN_SLOT})
    if s["phase"] == "bonus" and s["stage"] == "crop_tile":
        s = act(s, {"type": "decline"})
    assert s["register"][data.KILN_SLOT - 1]["merchant"] == seat
    s = play_until(s, lambda s: s["round"] == 2)
    assert s["register"][data.KILN_SLOT - 1]["merchant"] is None


def regulation(produced: list[int], exempt: bool = False):
    """Round 1 Regulation: the active seat owns one Workshop per entry of `produced` (Goods
    made this round), holds no Yinzi, and is on Tax Exemption when `exempt`."""
    s = play_until(at_directives(), lambda s: s["phase"] == "regulation")
    seat = s["active"]
    for made, prov in zip(produced, ("suzhou", "changzhou", "tongzhou")):
        fields = [f for f in data.FIELDS_BY_PROVINCE[prov] if f not in s["occupants"]][:3]
        wid = s["workshop_deck"][0]
        add_workshop(s, seat, wid, fields)
        s["workshops"][wid]["produced"] = made
    for slot in s["register"]:
        slot["merchant"] = None
    if exempt:
        s["register"][data.EXEMPT_SLOT - 1]["merchant"] = seat
    give(s, seat, yinzi=0, sapeques=0)
    return s, seat


def test_tax_only_for_workshops_that_made_a_good():
    """TAX: three Workshops, two made Goods (1 and 2 of them), one stood idle: 2 Yinzi due, not
    3; unpaid, 2 VP each."""
    s, seat = regulation([1, 2, 0])
    assert GAME.pending(s)[0].prompt == {"tax_owed": 2}
    s = act(s, {"type": "done"})
    assert s["seats"][seat]["tax_vp"] == -4


def test_idle_workshops_pay_no_tax_and_b1_is_not_offered():
    """TAX: no Workshop made a Good, so nothing is owed, and Tax Waiver (offered only when tax
    is due) would be wasted."""
    s, seat = regulation([0, 0])
    assert GAME.pending(s)[0].prompt == {"tax_owed": 0}
    s["admin"]["B1"] = {"owner": seat, "round": 1, "phase": "bonus"}
    s["seats"][seat]["overseers"] -= 1
    illegal(s, {"type": "benefit", "benefit": "B1"}, "benefit.no_tax")
    s = act(s, {"type": "done"})
    assert s["seats"][seat]["tax_vp"] == 0


def test_tax_exemption_waives_one_taxed_workshop():
    """TAX with rules 4's Tax Exemption (one Workshop): of two Workshops that made Goods, one
    pays; an idle third changes nothing."""
    s, _ = regulation([1, 1, 0], exempt=True)
    assert GAME.pending(s)[0].prompt == {"tax_owed": 1}


def test_a_produce_makes_the_workshop_taxable():
    """TAX through the rules: a Produce in round 1 is what makes its Workshop owe the tax."""
    s = at_directives()
    seat = s["active"]
    clear_board(s)
    wid = s["workshop_deck"][0]
    add_workshop(s, seat, wid, ["SZ1", "SZ2", "SZ3"])
    crop = data.GOOD_INPUT[data.WORKSHOP_TILES[wid]]
    market = next(p for p in data.PROVINCES
                  if crop in data.MARKETS[s["markets"][p]["tile"]]["spaces"])
    index = data.MARKETS[s["markets"][market]["tile"]]["spaces"].index(crop)
    s["markets"][market]["spaces"][index] = 1 - seat
    s["seats"][1 - seat]["peasants"] -= 1
    assert scoring.tax_owed(s, seat) == 0
    s = act(trade(s, 3), {"type": "produce", "workshop": wid, "market": market, "index": index})
    assert s["workshops"][wid]["produced"] == 1 and scoring.tax_owed(s, seat) == 1


def test_the_table_can_tax_every_workshop_again(monkeypatch):
    """TAX is data: scoring.json taxed_workshops 'all' is 5.13 as written (rules 1-4), the
    idle Workshop pays too."""
    monkeypatch.setattr(data, "TAXED_WORKSHOPS", "all")
    s, _ = regulation([1, 0, 0])
    assert GAME.pending(s)[0].prompt == {"tax_owed": 3}
