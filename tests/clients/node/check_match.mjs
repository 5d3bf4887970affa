// Checks games from outside the service, as a JavaScript tool would (node 20, no packages):
//   1. the seed commitment test vectors (clients/protocol/commitment-vectors.json), in JS;
//   2. a finished match's JSONL export: its revealed seed against its commitment, recomputed
//      here, then the whole export through POST /v1/verify;
//   3. a gops game "played elsewhere": a check session with external chance, the chance
//      outcomes chosen by this script, one request per move.
// Seeds are strings of digits in every answer, so plain JSON.parse loses nothing (no BigInt).
// Usage: node check_match.mjs --url URL --match ID --vectors PATH
// Prints one JSON summary line; exits 1 with the reason on stderr on any failure.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

function arg(name) {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0 || at + 1 >= process.argv.length) throw new Error(`--${name} is required`);
  return process.argv[at + 1];
}

function check(condition, what) {
  if (!condition) throw new Error(what);
}

// The commitment, byte by byte as README "Fair seeds" states it: SHA-256 of the ASCII bytes
// of the seed's digits, ":" and the salt, as lowercase hex.
function commitment(seed, salt) {
  check(/^(0|[1-9][0-9]*)$/.test(seed), `seed ${JSON.stringify(seed)} is not a digit string`);
  return createHash("sha256").update(Buffer.from(`${seed}:${salt}`, "ascii")).digest("hex");
}

async function call(url, method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(url + path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return data;
}

function checkVectors(path) {
  const data = JSON.parse(readFileSync(path, "utf8"));
  for (const v of data.vectors) {
    check(Buffer.from(`${v.seed}:${v.salt}`, "ascii").toString("hex") === v.message_hex,
      `message bytes of seed ${v.seed}`);
    check(commitment(v.seed, v.salt) === v.commitment, `commitment of seed ${v.seed}`);
  }
  return data.vectors.length;
}

async function checkExport(url, match) {
  const response = await fetch(`${url}/v1/matches/${match}/log?format=jsonl`);
  check(response.ok, `export: ${response.status}`);
  const jsonl = await response.text();
  const header = JSON.parse(jsonl.split("\n")[0]);
  const seal = header.seed_commitment;
  check(typeof header.seed === "string", "the export's seed is a string");
  check(seal.revealed && commitment(header.seed, seal.salt) === seal.commitment,
    "the revealed seed and salt hash to the commitment");
  const verdict = await call(url, "POST", "/v1/verify", { jsonl });
  check(verdict.legal && verdict.error === null, `verify: ${JSON.stringify(verdict.error)}`);
  check(verdict.outcome_matches === true, "verify: the outcome matches the record");
  check(verdict.commitment_matches === true, "verify: the service agrees on the commitment");
  return { seed: header.seed, moves: verdict.moves };
}

// A small deterministic generator for the table's own chance (here: the script's).
function dealer(state) {
  return (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % n;
  };
}

async function playElsewhere(url) {
  const pick = dealer(40);
  let answer = await call(url, "POST", "/v1/check-sessions",
    { game: "gops", players: 2, chance: "external", options: { cards: 4 } });
  const { id, token } = answer;
  let requests = 1, chanceMoves = 0, version = 0;
  while (!answer.over) {
    const decision = answer.pending[0];
    const options = decision.legal_moves;
    const move = options[decision.seat === "chance" ? pick(options.length) : 0];
    if (decision.seat === "chance") chanceMoves += 1;
    answer = await call(url, "POST", `/v1/check-sessions/${id}/moves`,
      { seat: decision.seat, move }, token);
    requests += 1;
    check(answer.legal && answer.version === ++version, `move ${version}: ${JSON.stringify(answer.error)}`);
    check(requests < 200, "the game ends");
  }
  const wrong = await call(url, "POST", `/v1/check-sessions/${id}/moves`,
    { seat: 0, move: { type: "bid", card: 1 } }, token);
  check(wrong.legal === false && wrong.version === version, "a move after the end is refused");
  await call(url, "DELETE", `/v1/check-sessions/${id}`, undefined, token);
  return { moves: version, chance_moves: chanceMoves, requests,
    termination: answer.outcome.termination, scores: answer.outcome.scores };
}

try {
  const url = arg("url").replace(/\/$/, "");
  const vectors = checkVectors(arg("vectors"));
  const record = await checkExport(url, arg("match"));
  const elsewhere = await playElsewhere(url);
  console.log(JSON.stringify({ vectors, record, elsewhere }));
} catch (err) {
  console.error(String(err && err.message ? err.message : err));
  process.exit(1);
}
