"""Which rules a recorded match was played under, and whether these rules read it.

A game's `rules_version` changes when its rules or the meaning of its moves, states or chance
outcomes change (the guide). A match or log recorded under an older version is replayed only
when the game says its records replay unchanged under the current rules: `GameSpec.older_rules`
maps an older version to the chance modes whose records do ("internal": matches dealt from
their seed, whose logs hold no chance outcome; "all": external-chance logs too). Anything else
is refused with a code, never read with rules it was not played under.
"""

from __future__ import annotations

from referee.core.chance import EXTERNAL, INTERNAL
from referee.core.errors import RefereeError
from referee.core.spec import GameSpec

READS = {"internal": frozenset({INTERNAL}), "all": frozenset({INTERNAL, EXTERNAL})}
"""What an `older_rules` entry may say, and the chance modes it admits."""


class RulesVersionUnreadable(RefereeError):
    """A record made under rules whose records these rules do not replay."""

    code = "rules.version_unreadable"
    status = 422


def readable(spec: GameSpec, version: str | None, chance: str = INTERNAL) -> bool:
    """Whether a record made under `version` (None: not said, taken as current) with
    `chance` replays unchanged under the game's current rules."""
    if version is None or version == spec.rules_version:
        return True
    return chance in READS.get(spec.older_rules.get(version, ""), frozenset())


def check_readable(spec: GameSpec, version: str | None, chance: str = INTERNAL,
                   error: type[RefereeError] = RulesVersionUnreadable) -> None:
    """Raise `error` unless a record made under `version` with `chance` is readable."""
    if not readable(spec, version, chance):
        raise error(unreadable_message(spec, version, chance), recorded=version,
                    current=spec.rules_version, reads=dict(spec.older_rules))


def unreadable_message(spec: GameSpec, version: str | None, chance: str) -> str:
    """Why such a record is refused, in words: what was recorded and what these rules read."""
    older = ", ".join(f"{v} ({mode} chance)" for v, mode in sorted(spec.older_rules.items()))
    return (f"recorded under {spec.name} rules_version {version} with {chance} chance; this "
            f"service plays rules_version {spec.rules_version} and replays older records of "
            f"{older or 'no older version'}: it will not read the record with rules it was "
            f"not played under")
