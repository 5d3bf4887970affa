#!/usr/bin/env node
'use strict';
// A bot protocol v1 bot in plain Node (no dependencies): it plays a random legal move.
//
//   node clients/js/bot.js --port 9002 --secret SECRET
//   node clients/js/bot.js --port 9002 --register http://127.0.0.1:8000 --games g1,g2
//
// Your own bot: require('./bot').serveBot(request => chooseAMove(request), { name: 'mine' }).

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const { call } = require('./api');
const { parseArgs } = require('./args');
const { Verifier } = require('./protocol');

const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/** Any legal move: every request carries all of them. */
function randomMove(request) {
  const moves = request.legal_moves;
  return moves[Math.floor(Math.random() * moves.length)];
}

/** Where the secret comes from: set later (registration), given, or a file re-read on change. */
class SecretSource {
  constructor(secret, file) {
    this.value = secret || null;
    this.file = file || null;
    this.cache = { mtimeMs: -1, value: null };
  }

  get() {
    if (this.value) return this.value;
    if (!this.file) return null;
    let stat;
    try { stat = fs.statSync(this.file); } catch { return null; }
    if (stat.mtimeMs !== this.cache.mtimeMs) {
      const value = fs.readFileSync(this.file, 'utf8').trim() || null;
      this.cache = { mtimeMs: stat.mtimeMs, value };
    }
    return this.cache.value;
  }
}

/** A bot server around moveFn(request) -> move (or a Promise of one); returns
 *  { server, info, secret, refused }: call server.listen(port, host) to serve. */
function serveBot(moveFn, options = {}) {
  const bot = {
    info: { apiversion: '1', name: options.name || 'js-random-bot', author: options.author || '',
            games: options.games || [] },
    secret: new SecretSource(options.secret, options.secretFile),
    verifier: new Verifier(),
    refused: [],
    onStart: options.onStart || (() => {}),
    onEnd: options.onEnd || (() => {}),
  };
  bot.server = http.createServer((req, res) => handle(bot, moveFn, req, res));
  bot.server.keepAliveTimeout = 60000; // the service keeps one connection per worker thread
  // Without TCP_NODELAY, Nagle's algorithm and delayed ACKs can cost ~40 ms per answer.
  // Recent Node servers default to it; say so explicitly rather than rely on the default.
  bot.server.on('connection', (socket) => socket.setNoDelay(true));
  return bot;
}

function handle(bot, moveFn, req, res) {
  if (req.method === 'GET') {
    return req.url === '/' ? send(res, 200, bot.info) : send(res, 404, { error: 'no endpoint' });
  }
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) { send(res, 413, { error: 'too large' }); req.destroy(); }
    else chunks.push(chunk);
  });
  req.on('end', () => {
    if (size <= MAX_REQUEST_BYTES) answer(bot, moveFn, req, Buffer.concat(chunks), res);
  });
}

async function answer(bot, moveFn, req, body, res) {
  const routes = { '/start': bot.onStart, '/move': moveFn, '/end': bot.onEnd };
  if (req.method !== 'POST' || !Object.hasOwn(routes, req.url)) {
    return send(res, 404, { error: 'no endpoint' });
  }
  const secret = bot.secret.get();
  const reason = secret ? bot.verifier.check(secret, req.headers, body) : null;
  if (reason) {
    bot.refused = bot.refused.concat(reason).slice(-100);
    return send(res, 401, { error: reason });
  }
  let request;
  try {
    request = JSON.parse(body.toString('utf8'));
  } catch {
    return send(res, 400, { error: 'the body is not JSON' });
  }
  try {
    const result = await routes[req.url](request); // a move function may be async
    if (req.url !== '/move') return send(res, 200, {});
    if (result === null || typeof result !== 'object') {
      throw new TypeError(`the move function must return a move object, got ${JSON.stringify(result)}`);
    }
    send(res, 200, { move: result });
  } catch (err) { // the bot's own bug: say so; the service records the failure
    console.error(err);
    send(res, 500, { error: String(err) });
  }
}

function send(res, status, payload) {
  const body = Buffer.from(JSON.stringify(payload));
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
}

/** Register a serving bot; its record (the secret is kept by the bot, and written to a file). */
async function register(bot, serviceUrl, { url, games, owner, open }) {
  const claimed = games && games.length ? games
    : (await call(serviceUrl, 'GET', '/games')).games.map((g) => g.name);
  const record = await call(serviceUrl, 'POST', '/bots',
    { body: { url, games: claimed, name: bot.info.name, owner: owner || null, open: !!open } });
  bot.secret.value = record.secret;
  if (bot.secret.file) {
    fs.mkdirSync(path.dirname(bot.secret.file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(bot.secret.file, record.secret + '\n', { mode: 0o600 });
  }
  return record;
}

const USAGE = `usage: node bot.js [--port N] [--host H] [--name NAME] [--games g1,g2]
       [--secret S | --secret-file PATH] [--register SERVICE_URL] [--public-url URL] [--open]
(registering sends $REFEREE_KEY, an account key, when set; --open lets other accounts seat the bot)`;

async function main() {
  const args = parseArgs(process.argv.slice(2), {
    port: 'value', host: 'value', name: 'value', games: 'value', secret: 'value',
    'secret-file': 'value', register: 'value', 'public-url': 'value', owner: 'value', open: 'flag',
  }, USAGE);
  const games = args.games ? args.games.split(',') : [];
  const bot = serveBot(randomMove, {
    name: args.name, games, author: 'referee examples',
    secret: args.secret || process.env.REFEREE_BOT_SECRET,
    secretFile: args['secret-file'] || process.env.REFEREE_BOT_SECRET_FILE,
  });
  const host = args.host || '127.0.0.1';
  await new Promise((resolve) => bot.server.listen(Number(args.port || 0), host, resolve));
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host; // a wildcard bind, on loopback
  const url = args['public-url'] || `http://${reachable}:${bot.server.address().port}`;
  console.log(`${bot.info.name} serving ${url} (bot protocol v1)`);
  if (args.register) {
    try {
      const record = await register(bot, args.register,
        { url, games, owner: args.owner, open: args.open });
      console.log(`registered bot ${record.id} with ${args.register} for ${record.games.join(',')}`);
    } catch (err) {
      if (err.code === 'bot.url_taken' && bot.secret.get()) {
        // a restart at the same URL: the service keeps the bot and its secret (a URL is
        // registered once), and the secret file still holds that secret
        const id = (err.problem.details || {}).bot || '?';
        console.log(`already registered as bot ${id} with ${args.register}; verifying with the kept secret`);
      } else {
        console.error(`registration refused: ${err.message}`);
        process.exit(1);
      }
    }
  } else if (!bot.secret.get()) {
    console.log('no secret yet: requests are not verified until it is set '
      + '(--secret, --secret-file or --register)');
  }
}

module.exports = { randomMove, register, serveBot };

if (require.main === module) main();
