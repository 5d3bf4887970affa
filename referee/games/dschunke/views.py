"""What a seat (or a spectator) may see: the board, its own cards, public facts only."""

from __future__ import annotations

from referee.games.dschunke import flow, poker
from referee.games.dschunke.board import visible_table
from referee.games.dschunke.common import hand_size, resupply_count, seat_in_order
from referee.games.dschunke.data import (ACTIONS, ANY_JUNK, JUNKS, MARKET, MERCHANTS,
                                         STACKS, TRACKS)
from referee.games.dschunke.scoring import breakdown


def is_over(state: dict) -> bool:
    """True once the tenth round has been played."""
    return state["stage"]["kind"] == "over"


def goods_hidden(state: dict) -> bool:
    """FAQ Q6: nobody may count the goods left on the junks during phases 3 and 4."""
    return not is_over(state) and state["phase"] in (3, 4)


def view(state: dict, viewer: int | None, shared: dict | None = None) -> dict:
    """The state as `viewer` may see it (everything is shown once the game is over).

    `shared`: a dict kept with this state by a caller that only serialises the views it gets
    (the memo of Dschunke.served_view): what every viewer of the state sees alike (the table,
    the other seats' public blocks) is built once into it and shared by the views of that
    state."""
    over = is_over(state)
    shared = {} if shared is None else shared
    public = shared.get("public")
    if public is None:
        public = shared["public"] = _public(state)
    others = shared.setdefault("seats", {})
    seats = []
    for seat in range(state["players"]):
        if over or seat == viewer:
            seats.append(_seat(state, seat, viewer, over))
            continue
        block = others.get(seat)   # not the viewer's: the same for every other viewer
        if block is None:
            block = others[seat] = _seat(state, seat, viewer, over)
        seats.append(block)
    data = {
        "game": "dschunke", "round": state["round"], "phase": state["phase"], "over": over,
        "players": state["players"], "colours": state["colours"], "you": viewer,
        "start_player": state["start"],
        "market": public["market"],
        "junks": public["junks"],
        "merchants": public["merchants"],
        "assistants": public["assistants"],
        "seats": seats,
        "stacks": _stacks(state, viewer, over),
        "announced": state["announced"],
        "stage": public["stage"],
        "poker": _poker(state, viewer),
        "last_poker": state["last_poker"],
    }
    if over:
        data["final"] = breakdown(state)
    return data


def _public(state: dict) -> dict:
    """The parts of the view every viewer sees alike."""
    market = state["market"]
    return {
        "market": {"card": MARKET[market["card"]] if market["card"] is not None else None,
                   "settled": market["settled"], "deck_size": len(market["deck"]),
                   "played": [MARKET[c] for c in market["seen"]]},
        "junks": _junks(state),
        "merchants": _merchants(state),
        "assistants": {t: {"space": state["round"] - 1, "used": a["used"],
                           "action": ACTIONS[TRACKS[t]["spaces"][state["round"] - 1]]}
                       for t, a in state["assistants"].items()},
        "stage": _stage(state),
    }


def _junks(state: dict) -> dict:
    hidden = goods_hidden(state)
    junks, supply = state["junks"], state["supply"]
    visible = visible_table(junks, state["players"])
    out = {}
    for junk in JUNKS:
        pile = state["store"] if junk == ANY_JUNK else {junk: supply[junk]}
        out[junk] = {"layers": junks[junk]["layers"], "visible": visible[junk],
                     "goods": None if hidden or pile is None else pile,
                     "has_goods": bool(pile and any(pile.values()))}
    return out


def _merchants(state: dict) -> dict:
    if state["hidden_merchants"] is not None:  # set-up variant: face down, identity unknown
        return {"face_down": sorted(m["junk"] for m in state["merchants"].values()
                                    if m["junk"] is not None)}
    return {m: {"junk": f["junk"], "used": f["used"],
                "action": ACTIONS[MERCHANTS[m]["action"]]}
            for m, f in state["merchants"].items()}


def _seat(state: dict, seat: int, viewer: int | None, over: bool) -> dict:
    info = state["seats"][seat]
    mine = over or seat == viewer
    hand, opened, played, cards = info["hand"], info["open"], info["played"], info["cards"]
    held = hand_size(info)
    if not mine:   # sealed cards still count as held for the others: the bid size stays secret
        held += sum(_stake(state, seat).values())
    # an empty list is written out, not comprehended: most seats hold no open or played
    # cards most of the game, and a comprehension's frame costs more than the list (152k ->
    # 146k instructions a served view)
    return {
        "colour": state["colours"][seat], "strips": info["strips"],
        "resupply": resupply_count(info),
        "hand_size": held,
        "hand": dict(hand) if mine else None,
        "cash": info["cash"] if mine else None,
        "open_cards": [r["card"] for r in opened] if opened else [],
        "played_cards": [r["card"] for r in played] if played else [],
        "hidden_cards": ([] if not cards else
                         [{"stack": r["stack"], "round": r["round"], "card": r["card"]}
                          for r in cards] if mine else
                         [{"stack": r["stack"], "round": r["round"]} for r in cards]),
    }


def _stake(state: dict, seat: int) -> dict:
    poker = state["poker"]
    entry = poker["bids"][seat] if poker is not None else None
    return entry["stake"] if entry is not None else {}


def snapshot(state: dict, seat: int, stack: int) -> dict | None:
    """What `seat` saw when it last looked through `stack`: that stack's contents then.

    Rebuilt from the stack now plus every card taken from it after that look, wherever the
    card is now, so it stays true when hidden cards are re-dealt.
    """
    looks = state["seats"][seat]["looks"][stack]
    if not looks:
        return None
    moment = looks[-1]
    cards, round_ = list(state["stacks"][stack]), None
    for owner in state["seats"]:
        for record in owner["cards"] + owner["open"] + owner["played"]:
            if record["stack"] == stack and record["at"] > moment:
                cards.append(record["card"])
            elif record["at"] == moment:
                round_ = record["round"]
    return {"cards": sorted(cards), "round": round_}


def _stacks(state: dict, viewer: int | None, over: bool) -> list:
    """Each stack as `viewer` sees it: its size, what the viewer saw when it last looked
    through it (`snapshot`), its cards once over or while the viewer looks through it."""
    # the deciding seat and the viewer's looks read once, and a stack never looked through
    # costs no snapshot call (with board.visible_counts' loops: 177k -> 152k instructions a
    # served view over random playouts)
    looking = state["stage"].get("looking")
    if looking is not None and deciding_seat(state) != viewer:
        looking = None
    looks = state["seats"][viewer]["looks"] if viewer is not None else None
    stacks = []
    for stack in range(STACKS):
        cards = state["stacks"][stack]
        stacks.append({"size": len(cards),
                       "seen": snapshot(state, viewer, stack) if looks and looks[stack] else None,
                       "cards": sorted(cards) if over or looking == stack else None})
    return stacks


def deciding_seat(state: dict) -> int | None:
    """The seat taking the one sequential decision pending now (None: bids, or over)."""
    stage = state["stage"]
    kind = stage["kind"]
    if kind in ("trade_window", "trade", "s_event", "action", "resupply"):
        return seat_in_order(state, stage["i"])
    if kind == "s_reward":
        return stage["seat"]
    if kind == "place_merchant":
        return state["start"]
    if kind == "place_strip":
        return seat_in_order(state, stage["i"] % state["players"])
    return None


def _stage(state: dict) -> dict:
    stage = state["stage"]
    public = {k: v for k, v in stage.items() if k != "i"}
    if stage["kind"] == "bid":
        public["seats"] = poker.bidding(state)
    else:
        public["seat"] = deciding_seat(state)
    return public


def _poker(state: dict, viewer: int | None) -> dict | None:
    poker = state["poker"]
    if poker is None:
        return None
    bids = poker["bids"]
    return {"round": poker["round"], "open": flow.open_colours(state),
            "progress": [None if b is None else b["steps"] for b in bids],
            "my_stake": _stake(state, viewer) if viewer is not None else None,
            "reveal": poker["reveal"]}
