"""Dschunke in the terminal: the market card, the five junks with their cargo layers and
visible crates, merchants and assistants, every seat's public state (and your hand), the
special-card stacks and the goods poker."""

from __future__ import annotations

from referee_client.render import register
from referee_client.render.dschunke_words import describe
from referee_client.render.generic import Renderer, scalar

RING = ("grey", "orange", "lilac", "brown", "white")
"""The junks clockwise, when the game description (GET /v1/games/dschunke) has no board."""
GOODS = ("white", "brown", "lilac", "orange")
"""The goods colours in bid order, likewise the fallback of the served board."""
ROUNDS = 10
PHASES = {0: "set-up", 1: "market and events", 2: "actions", 3: "resupply", 4: "goods poker"}
STAGES = {
    "place_merchant": "places a face-down merchant", "place_strip": "places a cargo strip",
    "trade_window": "may play Trade Goods", "trade": "swaps goods (Trade Goods)",
    "s_event": "picks a special card (S event)", "action": "takes an action",
    "resupply": "takes resupply goods", "s_reward": "takes the S prize",
}


def action_text(action: dict) -> str:
    """A merchant's or assistant's action in words: `load 2`, `sell 1/crate (min 3)`..."""
    kind = action.get("kind", "?")
    if kind == "load":
        return f"load {action.get('strips', '?')}"
    if "flat" in action:
        return f"{kind} {action['flat']}"
    return f"{kind} {action.get('per_crate', 1)}/crate (min {action.get('minimum', 0)})"


def layers_text(layers: list, initials: list) -> str:
    """Cargo layers bottom to top, `[R B] / [G]`: the last layer is the top one."""
    if not layers:
        return "(empty)"
    return " / ".join("[" + " ".join(_initial(initials, o) for o in layer) + "]"
                      for layer in layers)


def _initial(initials: list, seat) -> str:
    return initials[seat] if isinstance(seat, int) and 0 <= seat < len(initials) else str(seat)


def market_text(card: dict | None, goods=GOODS) -> str:
    """`white 4 | brown 1 | lilac S | orange 2`."""
    if not card:
        return "-"
    return " | ".join(f"{g} {card.get(g, '?')}" for g in goods)


def goods_text(hand: dict | None, goods=GOODS) -> str:
    """`white 2, brown 3, lilac 0, orange 3`."""
    return ", ".join(f"{g} {hand.get(g, 0)}" for g in goods) if hand else "-"


def untag(node):
    """A served board table without its provenance tags ({value, status, source} -> value)."""
    if isinstance(node, dict) and "value" in node and "status" in node:
        return untag(node["value"])
    if isinstance(node, dict):
        return {k: untag(v) for k, v in node.items()}
    if isinstance(node, list):
        return [untag(v) for v in node]
    return node


@register("dschunke")
class DschunkeRenderer(Renderer):
    """The Dschunke table as text, a few lines per part."""

    def __init__(self, game: dict | None = None):
        super().__init__(game)
        self.ring = tuple(self._table("junks", RING))
        self.goods = tuple(self._table("goods", GOODS))
        self.rounds = self._table("rounds", ROUNDS)
        self.effects = self._table("special_card_effects", {})

    def _table(self, name: str, fallback):
        """A board table from the game description (untagged), else the built-in fallback."""
        entry = (self.game.get("board") or {}).get(name)
        return untag(entry["value"]) if isinstance(entry, dict) and "value" in entry \
            else fallback

    def view(self, view: dict | None, seat: int | None = None) -> str:
        """The whole table as `seat` sees it."""
        if not view or "junks" not in view:
            return super().view(view, seat)
        colours = view.get("colours") or []
        initials = [c[:1].upper() for c in colours]
        if len(set(initials)) != len(initials):  # not unique: fall back on seat numbers
            initials = [str(i) for i in range(len(colours))]
        parts = [self._header(view, colours), *self._junks(view, initials),
                 *self._seats(view, colours, seat), *self._stacks(view),
                 *self._poker(view, colours), *self._last_poker(view, colours),
                 *self._final(view, colours)]
        return "\n".join(line for line in parts if line is not None)

    # -- parts --------------------------------------------------------------------------------

    def _header(self, view: dict, colours: list) -> str:
        market = view.get("market") or {}
        settled = ", ".join(market.get("settled") or []) or "none"
        start = view.get("start_player")
        lines = [f"Dschunke - round {view.get('round')} of {self.rounds}, phase "
                 f"{view.get('phase')} "
                 f"({PHASES.get(view.get('phase'), '?')}){' - game over' if view.get('over') else ''}"
                 f" - start player: {self._who(start, colours)}",
                 f"market card: {market_text(market.get('card'), self.goods)}   settled: "
                 f"{settled}   "
                 f"deck: {market.get('deck_size', '?')} left"]
        stage = view.get("stage") or {}
        if stage.get("kind") == "bid":
            lines.append("now: sealed bids from " + (", ".join(
                self._who(s, colours) for s in stage.get("seats") or []) or "nobody"))
        elif stage.get("kind") in STAGES:
            lines.append(f"now: {self._who(stage.get('seat'), colours)} "
                         f"{STAGES[stage['kind']]}" + self._stage_detail(stage))
        return "\n".join(lines)

    @staticmethod
    def _stage_detail(stage: dict) -> str:
        take = stage.get("take")
        if take:
            return f" - choosing {take.get('left')} more goods from the {take.get('junk')} junk"
        if stage.get("kind") == "action" and stage.get("acted"):
            return " - action done (may still play cards)"
        return ""

    def _junks(self, view: dict, initials: list) -> list[str]:
        figures = self._figures(view)
        players = view.get("players") or len(initials)
        lines = ["junks (clockwise; cargo layers bottom to top; visible crates per seat):"]
        for junk in self.ring:
            info = (view.get("junks") or {}).get(junk)
            if info is None:
                continue
            goods = self._goods(junk, info)
            seen = info.get("visible") or []
            crates = " ".join(f"{_initial(initials, s)}{seen[s]}" for s in range(players)
                              if s < len(seen))
            lines.append(f"  {junk:<7} {goods:<16} {layers_text(info.get('layers'), initials):<28}"
                         f" crates {crates}")
            if junk == "grey" and info.get("goods"):
                lines.append(f"          general store: {goods_text(info['goods'], self.goods)}")
            if figures.get(junk):
                lines.append(f"          {'; '.join(figures[junk])}")
        assistants = view.get("assistants") or {}
        for name, info in sorted(assistants.items()):
            used = " (used)" if info.get("used") else ""
            lines.append(f"  {name} assistant: {action_text(info.get('action') or {})} on a "
                         f"junk without a merchant{used}")
        return lines

    @staticmethod
    def _goods(junk: str, info: dict) -> str:
        """The junk's goods pile: a count, hidden (phases 3-4), or the grey junk's any-colour
        take (with the 2-player variant's general store)."""
        pile = info.get("goods")
        if junk == "grey":
            if pile is not None:
                return f"store: {sum(pile.values())}" if pile else "takes any colour"
            return "store hidden" if info.get("has_goods") else "takes any colour"
        if pile is None:
            return "goods hidden" if info.get("has_goods") else "no goods"
        return f"{sum(pile.values())} {junk}"

    @staticmethod
    def _figures(view: dict) -> dict:
        merchants = view.get("merchants") or {}
        out: dict = {}
        if "face_down" in merchants:
            for junk in merchants["face_down"]:
                out.setdefault(junk, []).append("a face-down merchant")
            return out
        for name, info in sorted(merchants.items()):
            used = " (used)" if info.get("used") else ""
            out.setdefault(info.get("junk"), []).append(
                f"{name} merchant: {action_text(info.get('action') or {})}{used}")
        return out

    def _seats(self, view: dict, colours: list, seat: int | None) -> list[str]:
        lines = ["seats:"]
        for index, info in enumerate(view.get("seats") or []):
            you = " (you)" if index == seat else ""
            mark = ">" if index == seat else " "
            cash = scalar(info.get("cash")) if info.get("cash") is not None else "?"
            hand = f" ({goods_text(info['hand'], self.goods)})" if info.get("hand") else ""
            lines.append(f" {mark}{index} {self._colour(index, colours)}{you}: cash {cash}, "
                         f"goods {info.get('hand_size')}{hand}, strips left "
                         f"{info.get('strips')}, resupply {info.get('resupply')}")
            cards = [f"{c} (open)" for c in info.get("open_cards") or []]
            cards += [c.get("card") or f"hidden card (stack {c.get('stack')}, round "
                      f"{c.get('round')})" for c in info.get("hidden_cards") or []]
            if cards:
                lines.append(f"      cards: {', '.join(cards)}")
            lines += [f"        {c['card']}: {self.effects[c['card']]}"
                      for c in info.get("hidden_cards") or []
                      if index == seat and c.get("card") in self.effects]
            if info.get("played_cards"):
                lines.append(f"      played: {', '.join(info['played_cards'])}")
        announced = view.get("announced")
        if announced:
            cash = ", ".join(f"{self._colour(s, colours)} {c}"
                             for s, c in enumerate(announced.get("cash") or []))
            lines.append(f"  cash announced in round {announced.get('round')}: {cash}")
        return lines

    @staticmethod
    def _stacks(view: dict) -> list[str]:
        parts = []
        for index, stack in enumerate(view.get("stacks") or []):
            text = f"#{index}: {stack.get('size')} cards"
            if stack.get("cards"):
                text += f" [{', '.join(stack['cards'])}]"
            elif stack.get("seen"):
                text += f" (you saw in round {stack['seen'].get('round')}: " \
                        f"{', '.join(stack['seen'].get('cards') or [])})"
            parts.append(text)
        return ["special-card stacks: " + "; ".join(parts)] if parts else []

    def _poker(self, view: dict, colours: list) -> list[str]:
        poker = view.get("poker")
        if not poker:
            return []
        stake = poker.get("my_stake")
        lines = [f"goods poker, bidding round {poker.get('round')}: open "
                 f"{', '.join(poker.get('open') or []) or 'none'}"
                 + (f"; your sealed stake: "
                    f"{goods_text(stake, self.goods) if stake else 'nothing yet'}"
                    if stake is not None else "")]
        if poker.get("reveal"):
            lines.append(self._reveal(poker["reveal"], colours, "last reveal"))
        return lines

    def _last_poker(self, view: dict, colours: list) -> list[str]:
        """The round just ended: its poker's final reveal stays shown until the next poker."""
        last = view.get("last_poker")
        if not last or view.get("poker"):
            return []
        return [self._reveal(last["reveal"], colours,
                             f"goods poker of round {last.get('round')}, final reveal")]

    def _reveal(self, reveal: dict, colours: list, title: str) -> str:
        """`  last reveal (round 1): red 2 white, won 4; blue nothing`."""
        rows = []
        for index, row in enumerate(reveal.get("bids") or []):
            if row is None:
                continue
            laid = ", ".join(f"{n} {g}" for g, n in row.get("stake", {}).items()) or "nothing"
            void = "" if row.get("valid") or not row.get("stake") else " (void)"
            paid = (reveal.get("paid") or [])[index] if index < len(reveal.get("paid") or []) \
                else 0
            won = f", won {paid}" if paid else ""
            won += ", won the S" if reveal.get("s_winner") == index else ""
            rows.append(f"{self._colour(index, colours)} {laid}{void}{won}")
        return f"  {title} (bidding round {reveal.get('round')}): " + "; ".join(rows)

    def _final(self, view: dict, colours: list) -> list[str]:
        rows = view.get("final")
        if not rows:
            return []
        lines = ["final score: cash + card bonus + ship bonus = total (goods cards kept)"]
        for index, row in enumerate(rows):
            lines.append(f"  {self._colour(index, colours)}: {row.get('cash')} + "
                         f"{row.get('card_bonus')} + {row.get('ship_bonus')} = {row.get('total')}"
                         f" ({row.get('goods_cards')})")
        return lines

    # -- moves --------------------------------------------------------------------------------

    def move(self, move: dict) -> str:
        """The move in words: `bid 2 white`, `use the sell merchant's action`..."""
        text = describe(move)
        return text if text is not None else super().move(move)

    def decision(self, decision: dict) -> str:
        """The generic decision text, plus what a bid step asks."""
        text = super().decision(decision)
        prompt = decision.get("prompt") or {}
        if decision.get("kind") == "bid" and "goods" in prompt:  # the market is shown above
            return (text.splitlines()[0] +
                    f"\n  how many {prompt['goods']} cards do you lay (colour {prompt.get('step')}"
                    f" of {prompt.get('of')}; open: {', '.join(prompt.get('open') or [])})?"
                    "\n  lay cards in one colour only: a bid in two colours is void")
        return text

    @staticmethod
    def _who(seat, colours: list) -> str:
        if seat is None:
            return "-"
        return f"seat {seat} {colours[seat]}" if isinstance(seat, int) and seat < len(colours) \
            else f"seat {seat}"

    @staticmethod
    def _colour(seat: int, colours: list) -> str:
        return colours[seat] if seat < len(colours) else str(seat)
