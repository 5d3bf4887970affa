// Where the secret lives. POST /v1/bots shows it only once, so registration writes it to a
// file the bot reads back on restart (re-read when it changes: a rotated secret written
// there takes effect without a restart).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The Python kit's place: $REFEREE_BOT_STATE_DIR, else $XDG_STATE_HOME/referee/bots, else
 *  ~/.local/state/referee/bots; never the checkout. */
export function defaultSecretFile(name: string): string {
  const dir = process.env.REFEREE_BOT_STATE_DIR
    || path.join(process.env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state'),
                 'referee', 'bots');
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+|[._]+$/g, '') || 'bot';
  return path.join(dir, `${safe}.secret`);
}

export class SecretSource {
  private cache = { mtimeMs: -1, value: '' };

  constructor(public value: string, public readonly file: string) {}

  get(): string {
    if (this.value) return this.value;
    let stat: fs.Stats;
    try { stat = fs.statSync(this.file); } catch { return ''; }
    if (stat.mtimeMs !== this.cache.mtimeMs) {
      this.cache = { mtimeMs: stat.mtimeMs, value: fs.readFileSync(this.file, 'utf8').trim() };
    }
    return this.cache.value;
  }

  keep(secret: string): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(this.file, secret + '\n', { mode: 0o600 });
    this.value = secret;
  }
}
