// Compiled (never run) by tests/clients/test_openapi_typescript.py with `tsc --noEmit --strict`
// against the types openapi-typescript generated from /v1/openapi.json (./api) and the bot
// protocol's /v1/bot-protocol/openapi.json (./bot). What a client must be able to write
// compiles; each `@ts-expect-error` line is something the server refuses, so the types must
// refuse it too (an expected error that does not come fails the compile).
import type { components, paths } from "./api";
import type { components as BotComponents } from "./bot";

type Api = components["schemas"];
type Bot = BotComponents["schemas"];
type Body<P extends keyof paths, M extends "post"> =
    paths[P][M] extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

// -- a match to create: the two fields the server requires, nothing more ------------------------
export const create: Body<"/v1/matches", "post"> = {
    game: "dschunke", seats: ["remote", "builtin:random", "builtin:random"],
};
export const seeded: Api["MatchCreate"] = {
    game: "yunnan", seats: ["remote", "remote"], seed: "7374513755567299596",
    options: { rounds: 5 }, chance: "internal", max_moves: null,
};
// @ts-expect-error a seat is a string ("remote", "builtin:random", "bot:<id>")
export const numberSeat: Api["MatchCreate"] = { game: "dschunke", seats: [1] };
// @ts-expect-error seats are required
export const noSeats: Api["MatchCreate"] = { game: "dschunke" };
// @ts-expect-error an unknown field is refused (422 json.*: Unknown field)
export const typo: Api["MatchCreate"] = { game: "dschunke", seats: ["remote"], sede: "7" };
// @ts-expect-error chance is internal or external
export const chanceWord: Api["MatchCreate"] = { game: "dschunke", seats: ["remote"], chance: "dice" };

// -- a check: players only, the seed as a string (63 bits survive JSON.parse) ------------------
export const check: Body<"/v1/games/{game}/check", "post"> = { players: 3, seed: "7" };
export const checkMoves: Api["CheckRequest"] = {
    players: 3, seed: "7",
    moves: [{ seat: 0, move: { type: "bid", goods: "white", count: 2 } },
            { seat: "chance", move: { type: "chance", outcome: 4 } }],
    candidate: { move: { type: "pass" } },
};
// @ts-expect-error players is a number
export const playersText: Api["CheckRequest"] = { players: "3" };
// @ts-expect-error a candidate is a seated move, not any object
export const candidateShape: Api["CheckRequest"] = { players: 3, candidate: { seat: 0 } };
// @ts-expect-error a nullable seated move is one or null, never an empty object
export const emptyCandidate: Api["CheckRequest"] = { players: 3, candidate: {} };
// @ts-expect-error a submitted move names its type
export const untypedMove: Api["MoveSubmit"] = { move: { goods: "white", count: 2 } };

// -- a move to submit: any move object with its own fields, never null -------------------------
export const move: Body<"/v1/matches/{match_id}/moves", "post"> = {
    move: { type: "bid", goods: "white", count: 2 }, expected_version: 4,
};
// @ts-expect-error a move is an object (move: null is refused)
export const nullMove: Api["MoveSubmit"] = { move: null };
// @ts-expect-error a move is an object, not its type's name
export const textMove: Api["MoveSubmit"] = { move: "bid" };

// -- a match as read: its view may be null (a match waiting on a deal) ------------------------
export function viewedGame(match: Api["Match"]): string | null {
    // @ts-expect-error view may be null or absent: read it only after a check
    const unchecked: string = match.view.game;
    void unchecked;
    const view = match.view;
    if (view == null) return null;
    const game: string = view.game;   // the View's discriminator (`unknown` in an open object)
    return game;
}

// -- the bot protocol: what the service sends a bot, and a bot's answer -----------------------
export const start: Bot["StartRequest"] = {
    apiversion: "1", match: "m1", game: "gops", rules_version: "1", seat: 0, players: 3,
    options: { cards: 5 }, seats: ["me", null, "random"],
    limits: { move_ms: 1000, bank_ms: 5000, start_ms: 1000 },
};
export const answer: Bot["MoveAnswer"] = { move: { type: "bid", goods: "white", count: 2 } };
export const bid: Bot["dschunke.bid.MoveAnswer"] = {
    move: { type: "bid", goods: "white", count: 2 },
};
// @ts-expect-error a Dschunke bid names one of the four colours
export const pinkBid: Bot["dschunke.bid.MoveAnswer"] = { move: { type: "bid", goods: "pink", count: 2 } };
// @ts-expect-error an answer's move has a type
export const untyped: Bot["MoveAnswer"] = { move: { goods: "white" } };
export const result: Bot["Result"] = {
    scores: [3, 1], ranks: [1, 2], termination: "rules",
    details: { tiebreak: "cash" }, failures: { "1": { code: "seat.timeout" } },
};
export function firstLegal(request: Bot["dschunke.MoveRequest"]): Bot["MoveAnswer"] {
    return { move: request.legal_moves[0] };
}
