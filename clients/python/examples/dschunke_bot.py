"""A heuristic Dschunke bot: values every action by cash, cards and cargo position, and lays
the sealed goods-poker bid in a single colour chosen by the market card and its hand.

    python clients/python/examples/dschunke_bot.py --port 9001
    python clients/python/examples/dschunke_bot.py --port 9001 \
        --register http://127.0.0.1:8000 --games dschunke

The game knowledge lives in dschunke_strategy.py beside this file.
"""

from __future__ import annotations

import pathlib
import random
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # dschunke_strategy, also when imported from elsewhere
try:
    from referee_client.botkit import run
except ImportError:  # run from a checkout without `pip install -e .`: use the copy beside us
    sys.path.insert(0, str(HERE.parent))
    from referee_client.botkit import run

import dschunke_strategy as S  # noqa: E402


def choose(request: dict) -> dict:
    """The move for any Dschunke decision; always one of `request["legal_moves"]`."""
    moves = request["legal_moves"]
    if len(moves) == 1:
        return moves[0]
    kind = request["decision"]["kind"]
    handler = HANDLERS.get(kind)
    move = handler(request["view"], moves, request["decision"]) if handler else None
    # no opinion (where the face-down merchants go in the set-up variant): any legal move
    return move if move in moves else random.choice(moves)


# -- phase 2: the action ------------------------------------------------------------------------

def _action_spec(view: dict, move: dict) -> tuple[dict, str] | None:
    """The action table entry and junk a merchant/assistant move would use."""
    if move["type"] == "merchant":
        info = view["merchants"][move["merchant"]]
        return info["action"], info["junk"]
    if move["type"] == "assistant":
        return view["assistants"][move["assistant"]]["action"], move["junk"]
    return None


def action_value(view: dict, move: dict) -> float:
    """Yuan now, cards at their worth, and the cargo position gained; the best action wins."""
    spec = _action_spec(view, move)
    if spec is None:
        return 0.0
    action, junk = spec
    me = view["you"]
    junks = S.board(view)
    mine = S.visible(junks[junk], me)
    if action["kind"] == "sell":
        return float(max(action.get("minimum", 0), action.get("per_crate", 1) * mine))
    if action["kind"] == "take":
        count = action["flat"] if "flat" in action else \
            max(action.get("minimum", 0), action.get("per_crate", 1) * mine)
        count = min(count, S.goods_available(view))
        hand = sum(S.my_hand(view).values())
        # cards taken in phase 2 arm this round's poker already
        worth = sum(S.card_worth(hand + i) for i in range(count))
        return worth + (0.3 if junk == S.ANY_JUNK else 0.0)  # grey lets us pick the colours
    strips = min(action.get("strips", 1), view["seats"][me]["strips"])
    after = dict(junks, **{junk: S.loaded(junks[junk], me, strips)})
    return S.position_gain(view, junks, after)


def card_play_value(view: dict, move: dict) -> float:
    """What playing a Move Cargo Strip or Extra Action card now gains over keeping it."""
    me = view["you"]
    junks = S.board(view)
    last = S.rounds_left(view) == 0
    if move["type"] == "extra_action":
        kind = move["card"]
        now = S.card_value(view, kind, later=False)
        mine = S.visible(junks[kind.split("_", 2)[2]], me)
        # an extra action is best used on a well-stocked junk, and never kept past round 10
        return now if last or mine >= 2 * S.CRATES or S.rounds_left(view) <= 2 else -1.0
    if move["type"] == "move_strip":
        source, to, owner = move["from"], move["to"], move["owner_seat"]
        after = dict(junks)
        layers = [list(layer) for layer in junks[source]]
        layers[-1].remove(owner)
        if not layers[-1]:
            layers.pop()
        after[source] = layers
        after[to] = S.loaded(junks[to], owner, 1)
        gain = S.position_gain(view, junks, after)
        return gain - (0.0 if last else 3.0)  # keep the card for a better moment
    return 0.0


def act(view: dict, moves: list, decision: dict) -> dict:
    """Phase 2 before the action: the most valuable merchant or assistant action."""
    actions = [m for m in moves if m["type"] in ("merchant", "assistant")]
    if not actions:
        return _best_card(view, moves) or moves[0]
    return max(actions, key=lambda m: action_value(view, m))


def after_act(view: dict, moves: list, decision: dict) -> dict:
    """After the action: play a special card if it pays now, else end the turn."""
    return _best_card(view, moves) or {"type": "done"}


def _best_card(view: dict, moves: list) -> dict | None:
    cards = [m for m in moves if m["type"] in ("extra_action", "move_strip")]
    if not cards:
        return None
    best = max(cards, key=lambda m: card_play_value(view, m))
    return best if card_play_value(view, best) > 0 else None


# -- goods --------------------------------------------------------------------------------------

def take_goods(view: dict, moves: list, decision: dict) -> dict:
    """A take with a choice of colour: the colour that helps this round's poker most."""
    choice = S.best_goods(view, [m["goods"] for m in moves])
    return next(m for m in moves if m["goods"] == choice)


def resupply(view: dict, moves: list, decision: dict) -> dict:
    """Phase 3: always take the card (it is free), in the colour the poker wants."""
    takes = [m for m in moves if m["type"] == "resupply"]
    if not takes:
        return moves[0]
    choice = S.best_goods(view, [m["goods"] for m in takes])
    return next(m for m in takes if m["goods"] == choice)


def bid(view: dict, moves: list, decision: dict) -> dict:
    """One sealed bid step: our planned count in the planned colour, 0 in every other."""
    goods = decision["prompt"]["goods"]
    planned, count = S.plan_bid(view)
    stake = (view.get("poker") or {}).get("my_stake") or {}
    if stake or planned != goods:  # already laid (or not this colour): a second colour voids
        count = 0
    wanted = {"type": "bid", "goods": goods, "count": count}
    return wanted if wanted in moves else {"type": "bid", "goods": goods, "count": 0}


def trade_window(view: dict, moves: list, decision: dict) -> dict:
    """Play Trade Goods when a swap turns a poor colour into a richer one for this market."""
    possible = [{"type": "swap", "give": give, "take": take, "junk": take}
                for give in S.GOODS for take in S.GOODS
                if take != give and view["junks"][take]["has_goods"]]
    if {"type": "trade_goods"} in moves and _best_swap(view, possible) is not None:
        return {"type": "trade_goods"}
    return {"type": "pass"}


def trade(view: dict, moves: list, decision: dict) -> dict:
    """A swap that raises this round's poker prospect, else done (once one swap is made)."""
    swaps = [m for m in moves if m["type"] == "swap"]
    best = _best_swap(view, swaps)
    if best is not None:
        return best
    return {"type": "done"} if {"type": "done"} in moves else max(swaps, key=_swap_key(view))


def _swap_key(view: dict):
    hand = S.my_hand(view)

    def key(move):
        more = dict(hand)
        more[move["give"]] -= 1
        more[move["take"]] = more.get(move["take"], 0) + 1
        return S.poker_prospect(view, more)
    return key


def _best_swap(view: dict, swaps: list) -> dict | None:
    hand = S.my_hand(view)
    swaps = [m for m in swaps if hand.get(m["give"], 0) > 0]
    if not swaps:
        return None
    best = max(swaps, key=_swap_key(view))
    return best if _swap_key(view)(best) > S.poker_prospect(view, hand) + 0.5 else None


# -- special cards ------------------------------------------------------------------------------

def choose_stack(view: dict, moves: list, decision: dict) -> dict:
    """The stack whose best card looks best (seen stacks by their cards, unseen by size)."""
    later = view["phase"] == 4
    return max(moves, key=lambda m: S.stack_worth(view, view["stacks"][m["stack"]], later))


def take_card(view: dict, moves: list, decision: dict) -> dict:
    """Keep the special card worth most to us now."""
    later = view["phase"] == 4  # a card won in the poker is first used next round
    return max(moves, key=lambda m: S.card_value(view, m["card"], later))


def s_reward(view: dict, moves: list, decision: dict) -> dict:
    """Round 10's S: 3 sure yuan beat a card that has one action or bonus left at best."""
    return {"type": "s_reward", "choice": "yuan"}


def relocate_merchant(view: dict, moves: list, decision: dict) -> dict:
    """2-player variant: leave the merchant where it helps the opponent least."""
    me = view["you"]
    junks = S.board(view)
    return min(moves, key=lambda m: max(S.visible(junks[m["junk"]], s)
                                        for s in range(view["players"]) if s != me))


def place_strip(view: dict, moves: list, decision: dict) -> dict:
    """Set-up variant: lay the neighbour's strip where it gains them least (and us most)."""
    owner = decision["prompt"].get("owner_seat", view["you"])
    junks = S.board(view)

    def gain(move):
        after = dict(junks, **{move["junk"]: S.loaded(junks[move["junk"]], owner, 1)})
        return S.position_gain(view, junks, after)
    return max(moves, key=gain)


HANDLERS = {
    "action": act, "after_action": after_act, "take_goods": take_goods, "resupply": resupply,
    "bid": bid, "trade_window": trade_window, "trade": trade, "choose_stack": choose_stack,
    "take_card": take_card, "s_reward": s_reward, "relocate_merchant": relocate_merchant,
    "place_strip": place_strip,
}


if __name__ == "__main__":
    run(choose, name="dschunke-heuristic", games=["dschunke"], author="referee examples")
