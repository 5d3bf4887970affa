// A bot protocol v1 starter in TypeScript on plain Node 20 (node:http, no framework): it
// plays a random legal move in every game; put your strategy in choose() (strategy.ts).
//
//   npm ci && npm run build
//   node dist/bot.js --port 9001 --register http://127.0.0.1:8000   # once: learns its secret
//   node dist/bot.js --port 9001                                     # later: reads it back
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

import { register } from './register';
import { SecretSource, defaultSecretFile } from './secret';
import { Verifier } from './signing';
import { choose, MoveRequest } from './strategy';

const MAX_BODY = 16 * 1024 * 1024;
const ROUTES = new Set(['/start', '/move', '/end']);

/** Answer with an explicit Content-Length, so the HTTP/1.1 connection stays alive. */
function send(res: http.ServerResponse, status: number, payload: unknown): void {
  const body = Buffer.from(JSON.stringify(payload));
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
}

export function createBot(info: Record<string, unknown>, secret: SecretSource): http.Server {
  const verifier = new Verifier();
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/') return send(res, 200, info); // unsigned
    if (req.method !== 'POST' || !ROUTES.has(req.url || '')) {
      return send(res, 404, { error: 'no endpoint' });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', async () => {
      if (size > MAX_BODY) return send(res, 413, { error: 'too large' });
      const body = Buffer.concat(chunks);
      const known = secret.get();
      // an unregistered bot can verify nothing, so it accepts nothing
      const reason = known ? verifier.check(known, req.headers, body) : 'no secret yet';
      if (reason) return send(res, 401, { error: reason });
      let request: MoveRequest;
      try { request = JSON.parse(body.toString('utf8')); } catch {
        return send(res, 400, { error: 'the body is not JSON' });
      }
      if (req.url !== '/move') return send(res, 200, {}); // /start, /end: any 2xx
      try {
        send(res, 200, { move: await choose(request) });
      } catch (err) { // our own bug: say so (the service records it), never fake a move
        console.error(err);
        send(res, 500, { error: String(err) });
      }
    });
  });
  server.keepAliveTimeout = 60000; // the service keeps one connection per worker
  server.on('connection', (socket) => socket.setNoDelay(true)); // no ~40 ms Nagle stalls
  return server;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: {
    port: { type: 'string', default: '9001' }, host: { type: 'string', default: '127.0.0.1' },
    name: { type: 'string', default: 'ts-starter' }, games: { type: 'string', default: '' },
    'secret-file': { type: 'string' }, register: { type: 'string' },
    'public-url': { type: 'string' },
  } });
  const name = values.name as string;
  const games = values.games ? (values.games as string).split(',') : [];
  const file = values['secret-file'] || process.env.REFEREE_BOT_SECRET_FILE
    || defaultSecretFile(name);
  const secret = new SecretSource(process.env.REFEREE_BOT_SECRET || '', file);
  const server = createBot({ apiversion: '1', name, author: 'typescript starter', games }, secret);
  const host = values.host as string;
  await new Promise<void>((resolve) => server.listen(Number(values.port), host, resolve));
  const port = (server.address() as AddressInfo).port;
  const url = values['public-url'] || `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  console.log(`${name} serving ${url} (bot protocol v1)`);
  if (values.register) {
    try {
      await register(secret, values.register, url, name, games);
    } catch (err) {
      console.error(`registration refused: ${(err as Error).message}`);
      process.exit(1);
    }
  } else if (!secret.get()) {
    console.log(`no secret in ${file} yet: every POST is refused until you --register`);
  }
}

if (require.main === module) main();
