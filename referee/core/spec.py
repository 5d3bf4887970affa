"""What a game declares about itself, as data: the API, arena and tests know nothing else."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping

from referee.core.errors import InvalidOptions, InvalidPlayers
from referee.core.schema import check_schema, schema_errors

_OPTION_KINDS = ("bool", "int", "choice")


@dataclass(frozen=True)
class OptionSpec:
    """One match option: a name, a kind (bool, int, choice), a default and what it means."""

    name: str
    kind: str
    default: object
    description: str
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None
    status: str = "PROPOSAL"  # FOUND / DERIVED / PROPOSAL: where the default comes from

    def __post_init__(self):
        if self.kind not in _OPTION_KINDS:
            raise ValueError(f"option {self.name}: unknown kind {self.kind!r}")
        self.check(self.default)

    def check(self, value) -> None:
        """Raise InvalidOptions unless `value` is a valid value of this option."""
        if self.kind == "bool" and not isinstance(value, bool):
            raise InvalidOptions(f"option {self.name} must be true or false, got {value!r}",
                                 option=self.name)
        if self.kind == "int":
            self._check_int(value)
        if self.kind == "choice" and value not in self.choices:
            raise InvalidOptions(f"option {self.name} must be one of {list(self.choices)}, "
                                 f"got {value!r}", option=self.name)

    def _check_int(self, value) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidOptions(f"option {self.name} must be an integer, got {value!r}",
                                 option=self.name)
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptions(f"option {self.name} must be at least {self.minimum}, "
                                 f"got {value}", option=self.name)
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptions(f"option {self.name} must be at most {self.maximum}, "
                                 f"got {value}", option=self.name)

    def to_dict(self) -> dict:
        """The option as plain data for the API."""
        data = {"name": self.name, "kind": self.kind, "default": self.default,
                "description": self.description, "status": self.status}
        if self.choices:
            data["choices"] = list(self.choices)
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        return data


@dataclass(frozen=True)
class MoveKind:
    """One shape of move: its `type`, what it does, a JSON Schema of its fields, an example.

    `fields` is the JSON Schema `properties` of the move's fields other than `type`;
    `required` names the fields that must be present.
    """

    type: str
    description: str
    fields: dict = field(default_factory=dict)
    required: tuple = ()
    example: dict | None = None

    def __post_init__(self):
        # refuse an unsupported keyword now, loudly, rather than ignore it on every move
        check_schema(self.schema(), f"move {self.type!r}")

    def schema(self) -> dict:
        """The full JSON Schema of this move kind (an object with `type` fixed)."""
        return {
            "type": "object",
            "properties": {"type": {"type": "string", "enum": [self.type]}, **self.fields},
            "required": ["type", *self.required],
            "additionalProperties": False,
        }

    def errors(self, move: dict) -> list[str]:
        """The schema violations of `move`, empty when it is well formed."""
        return schema_errors(move, self._schema)

    @cached_property
    def _schema(self) -> dict:
        # one dict for the checks: the compiled check is cached per schema object
        return self.schema()

    def to_dict(self) -> dict:
        """The move kind as plain data for the API."""
        example = self.example if self.example is not None else {"type": self.type}
        return {"type": self.type, "description": self.description,
                "schema": self.schema(), "example": example}


@dataclass(frozen=True)
class GameSpec:
    """A game's metadata: names, player counts, rules version, options, moves, hidden info."""

    name: str
    title: str
    min_players: int
    max_players: int
    rules_version: str
    options: tuple[OptionSpec, ...] = ()
    moves: tuple[MoveKind, ...] = ()
    hidden: tuple[str, ...] = ()  # what no seat may see of another, in words, for the docs
    summary: str = ""
    variant_players: tuple[int, ...] = ()  # counts outside min..max that some option allows
    older_rules: Mapping[str, str] = field(default_factory=dict, hash=False)
    """Older rules_versions whose records replay unchanged under these rules, each with the
    chance modes that do: "internal" or "all" (referee.core.versions)."""

    def __post_init__(self):
        for group, key in ((self.options, "name"), (self.moves, "type")):
            names = [getattr(item, key) for item in group]
            dupes = {n for n in names if names.count(n) > 1}
            if dupes:
                raise ValueError(f"game {self.name}: duplicate {key}s {sorted(dupes)}")

    def move_kind(self, move_type: str) -> MoveKind | None:
        """The declared move kind called `move_type`, or None."""
        for kind in self.moves:
            if kind.type == move_type:
                return kind
        return None

    def resolve_options(self, options: dict | None) -> dict:
        """Fill in defaults and check every value; raise InvalidOptions on anything unknown."""
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise InvalidOptions("options must be an object")
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise InvalidOptions(f"{self.name} has no option {unknown[0]!r}; "
                                 f"options are {sorted(known)}", option=unknown[0])
        resolved = {}
        for name, opt in known.items():
            value = options.get(name, opt.default)
            opt.check(value)
            resolved[name] = value
        return resolved

    def check_players(self, players) -> None:
        """Raise InvalidPlayers unless `players` is within the declared range."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise InvalidPlayers(f"players must be an integer, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            variant = (f" ({players} only with one of its options: GET /v1/games/{self.name})"
                       if players in self.variant_players else "")
            raise InvalidPlayers(f"{self.title} takes {self.min_players}-{self.max_players} "
                                 f"players, not {players}{variant}", players=players)

    def player_counts(self) -> list[int]:
        """Every player count the game can be set up with (some only with an option)."""
        return sorted(set(range(self.min_players, self.max_players + 1)) |
                      set(self.variant_players))

    def to_dict(self) -> dict:
        """The spec as plain data for the API."""
        return {
            "name": self.name, "title": self.title, "summary": self.summary,
            "min_players": self.min_players, "max_players": self.max_players,
            "variant_players": list(self.variant_players),
            "rules_version": self.rules_version,
            "older_rules": dict(self.older_rules),
            "options": [o.to_dict() for o in self.options],
            "moves": [m.to_dict() for m in self.moves],
            "hidden": list(self.hidden),
        }
