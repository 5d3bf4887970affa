#!/usr/bin/env node
'use strict';
// Pull mode: play one seat of a match through the REST API with its seat token, choosing a
// random legal move each time, until the match ends; then print the result as one JSON line.
//
//   node clients/js/pull.js --url http://127.0.0.1:8000 --match ID --token TOKEN

const { ProblemError, call } = require('./api');
const { parseArgs } = require('./args');
const { randomMove } = require('./bot');

// The match moved on between our prompt and our move (another seat's sealed move landed, or
// the match ended) or the commit met contention: ask for a fresh prompt.
const ASK_AGAIN = new Set(['match.version_stale', 'match.busy', 'match.over', 'match.aborted']);

const USAGE = 'usage: node pull.js --url SERVICE_URL --match MATCH_ID --token SEAT_TOKEN '
  + '[--wait SECONDS] [--quiet]';

/** Play the token's seat to the end; the final match as the seat sees it. */
async function playSeat(url, matchId, token, { wait = 30, log = () => {} } = {}) {
  const path = `/matches/${encodeURIComponent(matchId)}`;
  for (;;) {
    const prompt = await call(url, 'GET', `${path}/prompt?wait=${wait}`,
      { token, timeoutMs: (wait + 30) * 1000 });
    if (prompt.status !== 'active') return call(url, 'GET', path, { token });
    if (!prompt.must_act) continue;
    const move = randomMove(prompt);
    try {
      const body = { move, expected_version: prompt.version };
      await call(url, 'POST', `${path}/moves`, { token, body });
      log(`seat ${prompt.seat} at version ${prompt.version}: ${JSON.stringify(move)}`);
    } catch (err) {
      if (!(err instanceof ProblemError) || !ASK_AGAIN.has(err.code)) throw err;
    }
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2),
    { url: 'value', match: 'value', token: 'value', wait: 'value', quiet: 'flag' }, USAGE);
  if (!args.url || !args.match || !args.token) {
    console.error(USAGE);
    process.exit(2);
  }
  const log = args.quiet ? () => {} : (line) => console.log(line);
  try {
    const wait = Number(args.wait || 30);
    const match = await playSeat(args.url, args.match, args.token, { wait, log });
    const summary = { match: match.id, status: match.status, seat: match.you, result: match.result };
    console.log(JSON.stringify(summary));
  } catch (err) {
    const problem = err instanceof ProblemError;
    console.error(problem ? `error: ${err.code}: ${err.problem.detail}` : String(err));
    process.exit(1);
  }
}

module.exports = { playSeat };

if (require.main === module) main();
