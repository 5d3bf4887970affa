"""The game kit: a game declares its rules, the core derives legal_moves, apply and from_dict.

A kit game subclasses `KitGame` and declares, per decision kind, one `Rule` per move type it
accepts: how to enumerate candidates and how to check and play one. From that the core
derives (so no game writes them again):

- `pending`: one Decision per `(seat, kind)` that `awaiting` names; move types, sealed and
  the prompt come from the declaration (`prompt` hook).
- `legal_moves`: the candidates the rule's `check` accepts (LEGAL: listed as built;
  ALIKE: one check decides them all). So listing and apply share one source of truth.
- `apply`: resolve the seat's decision, dispatch by move type, `check` on the input (a
  refused move costs no copy), copy the state ONCE, `play` on the copy, then `settle`.
  The input is never mutated. `apply_stored` is the same with the copy read from the JSON
  the caller holds of the state (the service, after committing it).
- `from_dict`: the declared `state_schema`, then the `check_state` invariants; InvalidState
  names the JSON path of the first bad field. `to_dict` is a copy.

The engine has already checked match over, the seat pending, the version, the move's shape
and that its type answers the decision: a kit game never checks turn again.

Example (tests/support/gops.py, abridged)::

    from referee.core.kit import DecisionKind, KitGame, Rule, no_check, one, rule_error
    from referee.core.statecheck import enum, integer, list_of, nat, nullable, record

    def _bids(s, seat):                   # candidates: one bid per card in hand
        return [{"type": "bid", "card": c} for c in s["hands"][seat]]

    def _check_bid(s, seat, move):        # reads only; raise (or return) the refusal
        if move["card"] not in s["hands"][seat]:
            raise rule_error("bid.not_in_hand", f"card {move['card']} is not in your hand")
            # -> code move.illegal.bid.not_in_hand, message "rule 'bid': card 9 is not ..."

    def _play_bid(s, seat, move):         # s is the private copy; the check has passed
        s["hands"][seat].remove(move["card"])
        s["bids"][seat] = move["card"]

    class Gops(KitGame):
        spec = SPEC                       # the GameSpec: its MoveKinds are the move types
        decisions = (
            DecisionKind("bid", (Rule("bid", _check_bid, _play_bid, _bids),), sealed=True),
            DecisionKind("award", (
                Rule("keep", no_check, lambda s, seat, m: _award(s, seat), one("keep")),
                Rule("give", _check_give, lambda s, seat, m: _award(s, m["to"]), _gifts))),
        )
        state_schema = record(players=integer(2, 4), hands=list_of(list_of(integer(1, 8))),
                              winner=nullable(nat(3)), ...)

        def awaiting(self, s):            # who decides what now: (seat, kind) pairs
            if s["winner"] is not None:
                return ((s["winner"], "award"),)
            return tuple((seat, "bid") for seat, b in enumerate(s["bids"]) if b is None)

        def prompt(self, s, seat, kind):  # optional: the Decision's prompt
            return {"prize": sum(s["prize"])} if kind == "award" else {}

        def settle(self, s):              # optional: automatic steps after every move
            if None not in s["bids"]:
                ...                       # resolve the round on the copy

        def check_state(self, s):         # optional: what the schema cannot say
            if len(s["hands"]) != s["players"]:
                raise state_error("$.hands", "needs one entry per player")

    plus setup, view, outcome (and redetermine, public_move, reveals) exactly as for any Game.

Declaring rules. `Rule(type, check, play, candidates, listing=CHECKED, gate=None)`:
`check(state, seat, move)` raises (or returns) a `rule_error(...)`, returns None when the
move is allowed, and must not change the state;
`play(state, seat, move)` changes the private copy and may assume `check` passed;
`candidates(state, seat)` yields candidate moves of this type (in the listing order).
`Rule.dry(type, handler, candidates, listing, gate)` adapts a `handler(state, seat, move,
dry)` that checks, returns early when `dry`, else changes the copy (apply then skips the
separate check).
A `DecisionKind(kind, rules, sealed=False, candidates=None)` lists its rules in the order its
move types are shown; its own `candidates(state, seat)` (moves of any of its types) replaces
the per-rule ones when one listing order must interleave types. `awaiting` may name the open
move types too, `(seat, kind, types)`, when options close some of a kind's rules.

Trusted candidates. Default CHECKED costs one `check` per candidate (no copy). Mark
`listing=LEGAL` when the enumerator only builds legal moves, or `ALIKE` when candidates
pass or fail together (the first one's check decides). A rule's `gate(state, seat)` may
say False when its check refuses every move of its type now, whatever the move (no action
left, too little stone): listing then neither builds nor checks its candidates. Either way
apply still checks what is submitted, by `check` alone; `audit_listing(game, state, seat)`
reports where a shortcut or a gate and per-candidate checks disagree: call it in the
game's tests over playouts.

Rule errors: `raise rule_error("give.target", "seat 5 is not another seat")` gives code
`move.illegal.give.target` and message "rule 'give': seat 5 ..." (the rule named in the
message is the code's first segment; pass `rule=` when it differs, e.g. Yunnan's
`rule_error("bid.space", ..., rule="space")`). Extra keywords become the error's details.
While moves are listed (`legal_moves`, `accepts`) only a yes or no is wanted: `rule_error`
then gives one shared refusal, no code or message built, so a check (or an enumerator
built on checks) raises or returns refusals and never decides by what one says.

State. `state_schema` is JSON Schema (see `referee.core.statecheck` for short builders);
`check_state(state)` checks what a schema cannot (lengths per player, conservation), raising
`statecheck.state_error("$.hands", "one hand per player")`; it runs only on data that fits
the schema, and a stray KeyError/TypeError there still becomes InvalidState. A state is
JSON data, as the service stores it: dicts with str keys, lists, str, int, float, bool and
None (no tuples, no Enum members). The kit's copies (`apply`, `to_dict`, `from_dict`) are
`copying.json_copy`, exact for such data (`apply_stored` reads its copy from the JSON); an
object found in two places of the state comes back as two equal objects, as from the
service's JSON, so a game never changes one of them expecting the other to follow.

External chance (`referee.core.chance`, `referee.core.suspend`). A kit game whose random
events all go through `chance.draw`/`take`/`shuffled` sets `external_chance = True`; then
`engine.start(..., chance=EXTERNAL)` calls `setup_external`, and for a state carrying
`state["chance"]` the kit's `apply` plays the move inside an external chance session: when a
draw has no outcome left, the move (or set-up) WAITS: the state returned is the state before
it plus the waiting record, `pending` is only `Decision(CHANCE, "chance:<kind>", ("chance",),
prompt={"event", "owner", "outcomes": [{"outcome", "probability"}], "about"})`,
`legal_moves(state, CHANCE)` lists `{"type": "chance", "outcome": o}` and
`chance_outcomes(state)` pairs them with probabilities. The chance move re-plays the waiting
move from that base state with every outcome supplied so far (so `play` and `settle` must be
deterministic given the outcomes). `from_dict` checks the chance record (schema, then the
waiting move played again). A set-up that waits has no game keys: the kit makes the game's
`view`, `outcome`, `standing` and `reveals` answer None/0 and `redetermine` the state itself
for it; a waiting move's views are the game's views of the base state, so games never look
at `state["chance"]`.

Migrating a game: delete `pending`, `legal_moves`, `apply`, `to_dict`, `from_dict`, the
dispatch tables (_LEGAL/_APPLY, if/elif, HANDLERS/CANDIDATES), the local "rule 'x'" helper,
every turn check (`move.illegal.turn`), the `deep_copy` on entry to apply, and the
hand-written state validation; keep setup, view, outcome, redetermine, public_move and the
rules themselves. Keep each decision's listing order (rule order, then candidate order):
builtin random bots pick by index, so another order plays other moves for the same seed.
"""

# The kit is split by concern (this guide and the names a game imports stay here):
# rules.py declares (Rule, DecisionKind, the listing modes, the check of a declaration),
# listing.py lists legal moves (the listing flag, rule_error, accepts, audit_listing), and
# game.py derives the Game methods (KitGame).
from referee.core.kit.rules import ALIKE, CHECKED, LEGAL, DecisionKind, Rule, no_check, one
from referee.core.kit.listing import accepts, audit_listing, rule_error
from referee.core.kit.game import RECENT, KitGame

__all__ = ["ALIKE", "CHECKED", "LEGAL", "RECENT", "DecisionKind", "KitGame", "Rule",
           "accepts", "audit_listing", "no_check", "one", "rule_error"]
