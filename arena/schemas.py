"""Wire schemas of the arena endpoints."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from referee.service.defaults import TOURNAMENT
from referee.service.schemas import MAX_OFFSET, MatchCreatedSchema
from referee.service.bigint import SeedField
from referee.service.seatfield import chance_mode

ARENA_CHANCE = ("internal only: bots cannot deal for a table, so arena matches draw every "
                "random event from their seed (external chance is refused with 422 "
                "chance.unsupported; an organiser referees a live table with POST /v1/matches)")


class LimitsSchema(Schema):
    move_ms = fields.Integer(metadata={"description": "per-move limit (default 1000)"})
    bank_ms = fields.Integer(metadata={"description": "per-match time bank (default 10000)"})
    start_ms = fields.Integer(metadata={"description": "limit for /start (default 5000)"})
    strikes = fields.Integer(metadata={"description": "failures absorbed (each answered by a "
                                                      "logged random legal move) before a "
                                                      "forfeit (default 0)"})
    max_streak = fields.Integer(metadata={"description": "moves in a row a bot may make "
                                                         "before it is stalling (default 500)"})


class BotCreateSchema(Schema):
    name = fields.String(load_default=None, validate=validate.Length(max=80))
    url = fields.String(required=True, validate=validate.Length(max=2000))
    games = fields.List(fields.String(), required=True, validate=validate.Length(min=1))
    owner = fields.String(load_default=None, validate=validate.Length(max=120),
                          metadata={"description": "ignored: a bot belongs to the account "
                                                   "that registers it"})
    open = fields.Boolean(load_default=False,
                          metadata={"description": "may other accounts seat it (default no)"})


class BotUpdateSchema(Schema):
    open = fields.Boolean(load_default=None, allow_none=True,
                          metadata={"description": "may other accounts seat it"})
    debug_public = fields.Boolean(load_default=None, allow_none=True,
                                  metadata={"description": "may everyone read its debug "
                                                           "texts once a match is over"})


class MatchDebugSchema(Schema):
    match = fields.String()
    debug = fields.List(fields.Dict(), metadata={
        "description": "version (the move's), seat, bot, text (at most 1 KiB), truncated, "
                       "bytes (its length as sent)"})


class BotDisableSchema(Schema):
    reason = fields.String(load_default="disabled by an organiser",
                           validate=validate.Length(max=300))


class BotSchema(Schema):
    id = fields.String()
    name = fields.String()
    url = fields.String()
    games = fields.List(fields.String())
    owner = fields.String(metadata={"description": "the id of the account it belongs to"})
    open = fields.Boolean(metadata={"description": "other accounts may seat it"})
    author = fields.String()
    info = fields.Dict()
    registered_at = fields.Float()
    health = fields.Dict()
    family = fields.String(metadata={"description": "versions: the id of the bot's first "
                                                    "version (absent: never versioned)"})
    version = fields.Integer(metadata={"description": "versions: n of this version"})
    previous = fields.String(metadata={"description": "versions: the version before"})
    build = fields.String()
    rating_carry = fields.String(metadata={"description": "inflate or fresh"})


class BotCreatedSchema(BotSchema):
    secret = fields.String(metadata={"description": "the HMAC key our requests are signed "
                                                    "with; shown only here"})


BOTS_PAGE = 50
"""Bots listed per page of GET /v1/bots when the request does not say (at most BOTS_PAGE_MAX)."""
BOTS_PAGE_MAX = 200


class BotListQuerySchema(Schema):
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_OFFSET),
                            metadata={"description": "bots to skip, oldest first"})
    limit = fields.Integer(load_default=BOTS_PAGE, validate=validate.Range(min=1,
                                                                            max=BOTS_PAGE_MAX),
                           metadata={"description": f"bots per page (default {BOTS_PAGE})"})


class BotVersionCreateSchema(Schema):
    url = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=2000),
                        metadata={"description": "default: the current version's URL (a new "
                                                 "build behind it)"})
    build = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))
    rating_carry = fields.String(load_default="inflate",
                                 validate=validate.OneOf(["inflate", "fresh"]),
                                 metadata={"description": "inflate: the previous version's mu, "
                                                          "sigma inflated; fresh: a new rating"})


class BotVersionsSchema(Schema):
    family = fields.String()
    current = fields.String()
    versions = fields.List(fields.Dict())


class BotSecretSchema(Schema):
    id = fields.String()
    secret = fields.String(metadata={"description": "the new HMAC key; shown only here"})


class BotCheckLineSchema(Schema):
    ok = fields.Boolean(metadata={"description": "PASS (true) or FAIL"})
    name = fields.String(metadata={"description": "the check, e.g. 'yunnan /move bid'"})
    expected = fields.String()
    got = fields.String()


class BotCheckSchema(Schema):
    bot = fields.String()
    at = fields.Float(metadata={"description": "when it ran (Unix time)"})
    passed = fields.Boolean(metadata={"description": "every check passed"})
    checks = fields.Integer()
    failed = fields.Integer()
    lines = fields.List(fields.Nested(BotCheckLineSchema))


class BotListSchema(Schema):
    bots = fields.List(fields.Nested(BotSchema))
    total = fields.Integer(metadata={"description": "bots registered in all"})
    offset = fields.Integer()
    limit = fields.Integer()


class ArenaMatchCreateSchema(Schema):
    game = fields.String(required=True)
    seats = fields.List(fields.String(), required=True, validate=validate.Length(min=1, max=16),
                        metadata={"description": "'bot:<id>', 'builtin:random' or 'remote'"})
    options = fields.Dict(load_default=dict)
    seed = SeedField(load_default=None, allow_none=True)
    limits = fields.Nested(LimitsSchema, load_default=dict)
    chance = chance_mode(ARENA_CHANCE, load_default="internal")
    rated = fields.Boolean(load_default=None, allow_none=True,
                           metadata={"description": "default: rated for an organiser unless "
                                                    "a seat is remote or an entrant holds "
                                                    "several seats; players may not ask for it"})


class ArenaMatchCreatedSchema(MatchCreatedSchema):
    rated = fields.Boolean(metadata={"description": "whether the match feeds the leaderboard"})
    unrated = fields.String(metadata={"description": "why a match left to the default is not "
                                                     "rated, when that is why"})


class SprtSchema(Schema):
    """H0: the candidate is elo0 better; H1: elo1 better (logistic Elo of the pair score)."""

    elo0 = fields.Float(load_default=0.0)
    elo1 = fields.Float(load_default=10.0)
    alpha = fields.Float(load_default=0.05, validate=validate.Range(min=0, max=0.5,
                                                                     min_inclusive=False,
                                                                     max_inclusive=False))
    beta = fields.Float(load_default=0.05, validate=validate.Range(min=0, max=0.5,
                                                                   min_inclusive=False,
                                                                   max_inclusive=False))


class TournamentCreateSchema(Schema):
    game = fields.String(required=True)
    entrants = fields.List(fields.String(), required=True, validate=validate.Length(min=2, max=64),
                           metadata={"description": "bot ids, or builtin:random"})
    format = fields.String(load_default=TOURNAMENT["format"],
                           validate=validate.OneOf(["round_robin", "ladder", "sprt", "swiss"]),
                           metadata={"description": "sprt: entrants are [candidate, baseline]; "
                                                    "pairs of duplicate matches until the "
                                                    "test decides or max_matches are played"})
    players = fields.Integer(load_default=None, allow_none=True)
    seeds_per_table = fields.Integer(load_default=TOURNAMENT["seeds_per_table"],
                                     validate=validate.Range(min=1, max=1000))
    seatings = fields.String(load_default=TOURNAMENT["seatings"],
                             validate=validate.OneOf(["rotations", "permutations"]),
                             metadata={"description": "round robin: each table in its cyclic "
                                                      "rotations, or in every seat order"})
    seed = SeedField(load_default=None, allow_none=True)
    options = fields.Dict(load_default=dict)
    limits = fields.Nested(LimitsSchema, load_default=dict)
    chance = chance_mode(ARENA_CHANCE, load_default="internal")
    rated = fields.Boolean(load_default=None, allow_none=True,
                           metadata={"description": "default: rated when an organiser "
                                                    "creates it; players' events never are"})
    concurrency = fields.Integer(load_default=TOURNAMENT["concurrency"],
                                 validate=validate.Range(min=1, max=64),
                                 metadata={"description": "ladder: matches running at once"})
    max_matches = fields.Integer(load_default=TOURNAMENT["max_matches"],
                                 validate=validate.Range(min=1),
                                 metadata={"description": "ladder: stop after this many (at "
                                                          "most the service's "
                                                          "REFEREE_LADDER_MAX_MATCHES, "
                                                          "default 2000)"})
    opponents = fields.List(fields.String(), load_default=None, allow_none=True,
                            validate=validate.Length(max=8),
                            metadata={"description": "sprt: who sits in the other seats, one "
                                                     "per seat (default: the baseline)"})
    sprt = fields.Nested(SprtSchema, load_default=None, allow_none=True)
    rounds = fields.Integer(load_default=None, allow_none=True,
                            validate=validate.Range(min=1, max=64),
                            metadata={"description": "swiss: rounds (default: log base players "
                                                     "of the entrants, rounded up, plus one)"})


class TournamentSchema(Schema):
    id = fields.String()
    owner = fields.String(metadata={"description": "the account that created it"})
    game = fields.String()
    format = fields.String()
    entrants = fields.List(fields.String())
    players = fields.Integer()
    seeds_per_table = fields.Integer()
    seatings = fields.String()
    seed = SeedField(allow_none=True, metadata={"description": "the seed the request "
                                                                    "gave, or null (the "
                                                                    "service's secret seeds)"})
    options = fields.Dict()
    limits = fields.Dict()
    rated = fields.Boolean()
    concurrency = fields.Integer()
    max_matches = fields.Integer()
    status = fields.String()
    created_at = fields.Float()
    finished_at = fields.Float()
    planned = fields.Integer()
    unrated_matches = fields.Integer(metadata={"description": "matches seating one builtin in "
                                                              "several seats (not rated)"})
    note = fields.String()
    progress = fields.Dict()
    standings = fields.List(fields.Dict())
    matches = fields.List(fields.String())
    rounds = fields.Integer(metadata={"description": "swiss: rounds to play"})
    round = fields.Integer(metadata={"description": "swiss: rounds seated so far"})
    byes = fields.Dict(metadata={"description": "swiss: byes per entrant"})
    swiss_standings = fields.List(fields.Dict(), metadata={
        "description": "swiss: entrant, points, matches, byes, by points"})
    ladder_queue = fields.List(fields.Dict(), metadata={
        "description": "ladder: every entrant in the order it is seated next: entrant, games "
                       "(seats held, running included), running, last (index of its latest "
                       "match), place (ties share one and are drawn at seating)"})
    opponents = fields.List(fields.String())
    sprt = fields.Dict(metadata={"description": "sprt: elo0, elo1, alpha, beta"})
    sprt_state = fields.Dict(metadata={"description": "sprt: the test as it stands: result "
                                                      "(accepted, rejected, inconclusive, or "
                                                      "null while it runs), pairs, wins, draws, "
                                                      "losses, llr, bounds, score, interval, "
                                                      "elo, elo_interval"})


class TournamentListSchema(Schema):
    tournaments = fields.List(fields.Nested(TournamentSchema))


class LeaderboardSchema(Schema):
    game = fields.String()
    status = fields.Dict()
    standings = fields.List(fields.Dict())
    min_games = fields.Integer(metadata={"description": "rated matches an entrant needs to be "
                                                        "ranked; below it `provisional`"})
