// Registration: POST /v1/bots (the service calls our GET / meanwhile, so we serve first).
import type { SecretSource } from './secret';

type Json = Record<string, any>;

/** One call of the service's /v1 API, with $REFEREE_KEY when set; a problem detail throws
 *  an Error carrying its code. */
async function call(service: string, method: string, route: string, body?: unknown): Promise<Json> {
  const base = service.replace(/\/+$/, '').replace(/\/v1$/, '');
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (process.env.REFEREE_KEY) headers.Authorization = `Bearer ${process.env.REFEREE_KEY}`;
  const response = await fetch(`${base}/v1${route}`, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30000),
  });
  const text = await response.text();
  let data: Json = {};
  try { data = JSON.parse(text); } catch { data = { detail: text.slice(0, 300) }; }
  if (!response.ok) {
    throw Object.assign(new Error(`${data.code} (HTTP ${response.status}): ${data.detail}`),
                        { code: data.code });
  }
  return data;
}

/** Register the serving bot at `url` and keep its secret. A URL is registered once: a
 *  restart that registers again gets bot.url_taken and goes on with the kept secret. */
export async function register(secret: SecretSource, service: string, url: string, name: string,
                               games: string[]): Promise<void> {
  const claimed = games.length ? games
    : (await call(service, 'GET', '/games')).games.map((g: Json) => g.name as string);
  let record: Json;
  try {
    record = await call(service, 'POST', '/bots', { url, games: claimed, name });
  } catch (err: any) {
    if (err.code === 'bot.url_taken' && secret.get()) {
      console.log(`already registered at ${url}; verifying with the kept secret`);
      return;
    }
    throw err;
  }
  secret.keep(record.secret);
  console.log(`registered bot ${record.id} with ${service} for ${claimed.join(',')}; `
              + `secret kept in ${secret.file}`);
}
