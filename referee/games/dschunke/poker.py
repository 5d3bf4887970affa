"""Phase 4: the goods poker. Sealed bids, revealed together, settled colour by colour.

A seat's bid is laid colour by colour (white, brown, lilac, orange), one sealed `bid` move
each, 0 for none: every bidding seat makes the same number of moves, so the log's move count
says nothing about the bid, and any physical layout (two colours, a settled colour) can be
laid; such a bid counts as no bid and its cards come back.
"""

from __future__ import annotations

from referee.core.kit import rule_error
from referee.games.dschunke import flow, specials
from referee.games.dschunke.common import holds_open, return_cards
from referee.games.dschunke.data import GOODS, MARKET


def bid_colour(state: dict, seat: int) -> str:
    """The colour the seat lays (or not) with its next bid move."""
    return GOODS[state["poker"]["bids"][seat]["steps"]]


def bidding(state: dict) -> list[int]:
    """Seats whose sealed bid is not complete yet."""
    return [seat for seat, b in enumerate(state["poker"]["bids"])
            if b is not None and b["steps"] < len(GOODS)]


def bid_candidates(state: dict, seat: int) -> list[dict]:
    """0 up to all held cards of the colour asked now."""
    goods = bid_colour(state, seat)
    return [{"type": "bid", "goods": goods, "count": k}
            for k in range(state["seats"][seat]["hand"][goods] + 1)]


def check_bid(state: dict, seat: int, move: dict) -> None:
    """The colour asked now, at most the cards of it held."""
    goods, count = move["goods"], move["count"]
    expected = bid_colour(state, seat)
    if goods != expected:
        raise rule_error("bid", f"bids are laid colour by colour in the order {list(GOODS)}; "
                         f"say how many {expected} cards you lay now")
    held = state["seats"][seat]["hand"][goods]
    if count > held:
        raise rule_error("bid", f"you hold {held} {goods} cards, not {count}")


def bid(state: dict, seat: int, move: dict) -> None:
    """Lay `count` cards of `goods` face down; reveal when every seat's bid is complete."""
    goods, count = move["goods"], move["count"]
    entry = state["poker"]["bids"][seat]
    state["seats"][seat]["hand"][goods] -= count
    if count:
        entry["stake"][goods] = count
    entry["steps"] += 1
    if not bidding(state):
        resolve(state)


def _sort_bids(state: dict, open_colours: list[str]):
    """Split the laid cards into valid bids {seat: (goods, count)} and the reveal rows."""
    valid, rows = {}, []
    for seat, entry in enumerate(state["poker"]["bids"]):
        if entry is None:
            rows.append(None)
            continue
        stake = entry["stake"]
        ok = len(stake) == 1 and next(iter(stake)) in open_colours
        rows.append({"stake": dict(stake), "valid": ok})
        if ok:
            valid[seat] = next(iter(stake.items()))
        else:  # two colours or a settled colour: as if no card was laid; cards come back
            for goods, count in stake.items():
                state["seats"][seat]["hand"][goods] += count
    return valid, rows


def _winners(state: dict, bidders: dict) -> list[int]:
    top = max(bidders.values())
    winners = sorted(seat for seat, count in bidders.items() if count == top)
    if len(winners) > 1:  # a single tie-breaker holder among the tied wins outright
        holders = [w for w in winners if holds_open(state["seats"][w], "tie_breaker")]
        if len(holders) == 1:
            return holders
    return winners


def resolve(state: dict) -> None:
    """Reveal all bids, pay each open colour, return staked cards, cover settled colours."""
    poker, market = state["poker"], state["market"]
    open_colours = flow.open_colours(state)
    valid, rows = _sort_bids(state, open_colours)
    values = MARKET[market["card"]]
    paid, won, s_winner, settled = [0] * state["players"], {}, None, []
    for goods in open_colours:
        bidders = {seat: n for seat, (g, n) in valid.items() if g == goods}
        if not bidders:
            continue
        winners = _winners(state, bidders)
        return_cards(state, goods, sum(bidders.values()))  # every staked card goes back
        won[goods] = winners
        if values[goods] == "S":
            if len(winners) == 1:
                s_winner = winners[0]
            elif not state["options"]["s_tie_settles"]:
                continue  # the tie pays nothing and the colour stays open
        else:
            for seat in winners:  # a tie splits the amount, rounded down
                share = values[goods] // len(winners)
                state["seats"][seat]["cash"] += share
                paid[seat] += share
        settled.append(goods)
    market["settled"] = [g for g in GOODS if g in market["settled"] or g in settled]
    poker["reveal"] = {"round": poker["round"], "bids": rows, "winners": won, "paid": paid,
                       "s_winner": s_winner, "settled": settled, "any_valid": bool(valid)}
    poker["bids"] = [None] * state["players"]
    state["reveals"] += 1  # every sealed bid so far is now public
    if s_winner is not None:
        specials.enter_s_reward(state, s_winner)
    else:
        flow.continue_poker(state)
