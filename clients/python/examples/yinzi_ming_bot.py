"""A heuristic bot for Yinzi: Ming: Workshops fed by its own sales and shipped to the Port,
the Ambassador up the track, Imperial Commendation, and Sapeques turned into Yinzi when the
rate is low.

    python clients/python/examples/yinzi_ming_bot.py --port 9001 \
        --register http://127.0.0.1:8000 --games yinzi-ming

Each decision is scored in end-of-game VP from the view alone (yinzi_ming_strategy,
yinzi_ming_moves); a move the bot has no opinion on is a random legal one. Every turn heads for `done`: exchanges only
enable a move taken next, or convert spare Sapeques once nothing else is wanted, and both are
judged on Sapeques + Yinzi at the rate, which an exchange leaves unchanged, so the bot never
swaps back and forth.
"""

from __future__ import annotations

import pathlib
import random
import sys
from itertools import permutations

try:
    from referee_client.botkit import run
except ImportError:  # run from a checkout without `pip install -e .`: use the copy beside us
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
    from referee_client.botkit import run

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import yinzi_ming_moves as moves  # noqa: E402  (beside this file, found from any directory)
import yinzi_ming_strategy as yz  # noqa: E402
from referee_client.render.yinzi_ming import learn  # noqa: E402

URGENCY = {"build": 5.0, "transport": 4.8, "deploy": 3.0, "sell": 2.5}
"""The order Commands go in: Workshops and transport first (they serve the later turns),
Deploy before Sell (a Peasant must stand on a Field to be sold)."""
DONE, OVERSEER = {"type": "done"}, {"type": "overseer"}


def choose(request: dict) -> dict:
    """The best legal move for the decision in `request`, by its estimated VP."""
    legal = request["legal_moves"]
    if len(legal) == 1:
        return legal[0]
    learn(request["view"])
    pos = yz.Position(request)
    kind = request["decision"]["kind"]
    handler = HANDLERS.get(kind.split(":")[0])
    move = handler(pos, legal) if handler else None
    return move if move in legal else random.choice(legal)


def start_space(pos: yz.Position, legal: list[dict]) -> dict:
    """Starting Peasants on a crop that a displayed Workshop eats and the markets buy."""
    wanted = {yz.INPUT[yz.GOOD_OF[w]] for w in pos.view["display"] if w}
    demand = pos.vacant_demand()

    def score(move):
        sid = move["space"]
        crop, prov = pos.view["board"][sid]["crop"], pos.province(sid)
        near = sum(1 for p, _, k, _ in demand if k == crop and p == prov)
        anywhere = sum(pay for _, _, k, pay in demand if k == crop)
        return (crop in wanted) * 2 + near * 0.6 + anywhere * 0.1
    return max(legal, key=score)  # ties: the first in board order


def merchant(pos: yz.Position, legal: list[dict]) -> dict:
    """The register slot whose benefit, Crop tile and place in turn order are worth most."""
    def score(move):
        slot = pos.view["register"][move["slot"] - 1]
        tile = 0.0
        if slot["tile"] and slot["cost"] <= pos.st["sapeques"] and pos.st["peasants"] >= 2:
            tile = max(0.0, tile_value(pos, slot))
        return slot_gain(pos, slot) + tile + 0.1 * (5 - move["slot"])
    # with the option exchange_in_bonus_turn, exchanges are offered here too: not needed
    return max((m for m in legal if m["type"] == "merchant"), key=score)


def slot_gain(pos: yz.Position, slot: dict) -> float:
    """A register slot's benefit in VP, from the effect the view gives (kind and amount)."""
    effect = slot.get("effect") or yz.SLOT_EFFECTS[slot["slot"]]
    kind, n = effect["kind"], effect["amount"]
    if kind == "sapeques":
        return n * pos.sv
    if kind == "ambassador":
        return min(n, yz.TRACK_LAST - pos.st["ambassador"]) * moves.advance_value(pos)
    if kind == "stone":
        return pos.stone_value() + 0.2 * (n - 1)
    if kind == "sale_bonus":
        return n * min(3, sum(c for _, _, c in pos.field_peasants())) * pos.sv
    if kind == "tax_exempt":  # 2 VP (a Yinzi of tax) per Workshop exempted; since rules 5
        # only a Workshop that makes a Good this round pays, so count those likely to
        likely = sum(1.0 if fed(pos, w) else 0.4 for w in pos.shops)
        return 2.0 * min(n, likely + 0.5 * (pos.want_workshop() and pos.st["stone"] > 0))
    if kind == "build_stone":  # Kiln Licence: our first Workshop, built this round, needs no
        return pos.stone_value() if pos.want_workshop() and not pos.shops else 0.0  # Stone
    return 0.0


def fed(pos: yz.Position, wid: str) -> bool:
    """Whether a Workshop of ours can be fed this round: its crop stands on a market already,
    or on a Field of ours, to be sold and taken."""
    crop = yz.INPUT[yz.GOOD_OF[wid]]
    on_market = any(want == crop and owner is not None for m in pos.view["markets"].values()
                    for want, owner in zip(m["demands"], m["spaces"]))
    return on_market or any(k == crop for _, k, _ in pos.field_peasants())


def crop_tile(pos: yz.Position, legal: list[dict]) -> dict:
    """Buy the tile beside our Merchant when 2 Peasants of its crop beat its price."""
    slot = pos.view["register"][pos.prompt["slot"] - 1]
    value = tile_value(pos, slot)
    field = moves.best_tile_field(pos, slot["crop"])
    buy = {"type": "buy_tile", "field": field}
    return buy if value > 0.3 and buy in legal else {"type": "decline"}


def tile_value(pos: yz.Position, slot: dict) -> float:
    """A register Crop tile: 2 Peasants of its crop, less its price."""
    crop = slot["crop"]
    return pos.peasant_value(crop) + pos.peasant_value(crop, 1) - slot["cost"] * pos.sv


def directive(pos: yz.Position, legal: list[dict]) -> dict:
    """Plan the round's Commands (which card's lines go to which action), then play the most
    urgent half: Workshops and transport first, Deploy before Sell, Trades once they can use
    all their actions, and halves with nothing to do last."""
    cards = pos.st["cards"]
    tops = [c for c in cards if not c["top"]]
    free = [a for a, card in pos.st["spaces"].items() if card is None]
    value = {}

    def worth(action, n):
        if (action, n) not in value:
            value[action, n] = moves.action_plan_value(pos, action, n)
        return value[action, n]

    plan = max(permutations(free, len(tops)),
               key=lambda acts: sum(worth(a, c["lines"]) for a, c in zip(acts, tops)),
               default=())
    options = []
    for action, card in zip(plan, tops):
        v = worth(action, card["lines"])
        urgent = URGENCY.get(action, 4.5 if pos.view["admin"].get("B6") is None else 2.0)
        options.append((urgent if v > 0.05 else 0.5,
                        {"type": "command", "card": card["card"], "action": action}))
    useful = [v for v, _ in moves.distinct(moves.ACTION_MOVES[None](pos)) if v > 0.05]
    for card in cards:
        if card["bottom"]:
            continue
        if len(useful) >= card["value"]:
            rank = 2.7 + 0.01 * card["value"]     # it can use all its actions now
        elif useful:
            rank = 1.0 + 0.01 * card["value"]     # better after our sales: keep it for later
        else:
            rank = 0.8 - 0.01 * card["value"]     # nothing to do: spend the smallest first
        options.append((rank, {"type": "trade", "card": card["card"]}))
    options.sort(key=lambda o: -o[0])
    return next((m for _, m in options if m in legal), None)


def act(pos: yz.Position, legal: list[dict]) -> dict:
    """One step of a Directive turn: the best action; else an Overseer or a benefit for one
    more action, or Yinzi sold to pay for it; else convert spare Sapeques and end the turn."""
    action = pos.turn.get("action")
    left = pos.prompt.get("actions_left", 0)
    for value, move in sorted(moves.ACTION_MOVES[action](pos), key=lambda c: -c[0]):
        if value <= 0.05:
            break
        if move in legal:
            return move
        if left == 0:
            extra = more_actions(pos, legal, value)
            if extra:
                return extra
            break  # every other candidate needs an action too
        need = sapeques_needed(pos, move)
        sold = sell_yinzi(legal) if pos.st["sapeques"] < need <= pos.wealth else None
        if sold:
            return sold
    return use_benefits(pos, legal) or convert(pos, legal) or DONE


def sapeques_needed(pos: yz.Position, move: dict) -> int:
    """What an upgrade or a Quarry costs (the Sapeque spends a Yinzi may be sold for)."""
    if move["type"] == "upgrade":
        return yz.UPGRADE[pos.shops[move["workshop"]]["level"] + 1][0]
    return 2 if move["type"] == "quarry" else 0


def more_actions(pos: yz.Position, legal: list[dict], value: float) -> dict | None:
    """Prefect's Seal, else an extra Overseer, when a good action is left undone; Overseers
    a later Command of this round needs (build, upgrade, corrupt) are kept back."""
    seal = {"type": "benefit", "benefit": "B5"}
    if seal in legal and value >= 0.8:
        return seal
    if OVERSEER not in legal or value < 1.0:
        return None
    spaces = pos.st["spaces"]
    keep = (spaces["build"] is None and (pos.want_workshop() or bool(pos.shops))) + \
           (spaces["corrupt"] is None and pos.view["admin"].get("B6") is None)
    return OVERSEER if pos.st["overseers"] > keep else None


def sell_yinzi(legal: list[dict]) -> dict | None:
    """Sell a Yinzi for Sapeques, through Mint Contact (R + 1) when we hold it."""
    for move in ({"type": "mint", "direction": "sell"}, {"type": "exchange", "direction": "sell"}):
        if move in legal:
            return move
    return None


def use_benefits(pos: yz.Position, legal: list[dict]) -> dict | None:
    """Tax Waiver when tax is due, Quarry Grant's Stone at once (its Overseer comes back)."""
    for b in ("B1", "B3"):
        if {"type": "benefit", "benefit": b} in legal:
            return {"type": "benefit", "benefit": b}
    return None


def convert(pos: yz.Position, legal: list[dict]) -> dict | None:
    """Sapeques to Yinzi while the rate is below what we expect at the end (a Yinzi is 2 VP
    for good), Yinzi to Sapeques while it is far above; in the last round only Mint Contact
    can gain anything, and only when it beats the final rounding down."""
    st, r = pos.st, pos.rate
    if pos.last_round:
        return final_mint(pos, legal)
    reserve = 3 + sum(yz.UPGRADE[s["level"] + 1][0] for s in pos.shops.values() if s["level"] < 3)
    spare = st["sapeques"] - min(reserve, 10)
    if 2 / r >= pos.sv * 1.05 and st["sapeques"] >= 1:
        mint = {"type": "mint", "direction": "buy"}
        if mint in legal and spare >= r - 1:
            return mint
        if spare >= r and {"type": "exchange", "direction": "buy"} in legal:
            return {"type": "exchange", "direction": "buy"}
    if r * pos.sv > 2 * 1.2 and st["yinzi"]:
        return sell_yinzi(legal)
    return None


def final_mint(pos: yz.Position, legal: list[dict]) -> dict | None:
    """Use Mint Contact in the last round if it raises 2 x Yinzi + 2 x floor(Sapeques / R)."""
    s, y, r = pos.st["sapeques"], pos.st["yinzi"], pos.rate
    now = 2 * y + 2 * (s // r)
    if {"type": "mint", "direction": "buy"} in legal and \
            2 * (y + 1) + 2 * ((s - max(r - 1, 1)) // r) > now:
        return {"type": "mint", "direction": "buy"}
    if {"type": "mint", "direction": "sell"} in legal and 2 * (y - 1) + 2 * ((s + r + 1) // r) > now:
        return {"type": "mint", "direction": "sell"}
    return None


def regulation(pos: yz.Position, legal: list[dict]) -> dict:
    """Regulation: waive the tax if we can, take free Stone, convert Sapeques, done."""
    return use_benefits(pos, legal) or convert(pos, legal) or DONE


HANDLERS = {"start_peasants": start_space, "merchant": merchant, "crop_tile": crop_tile,
            "directive": directive, "command": act, "trade": act, "regulation": regulation}
"""Decision kind (before any ':') -> the function that picks the move."""


if __name__ == "__main__":
    run(choose, name="yinzi-ming-heuristic", games=["yinzi-ming"])
