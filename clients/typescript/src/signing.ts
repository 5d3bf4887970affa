// Bot protocol v1 signatures, exactly as the service signs (arena/protocol.py):
//   X-Referee-Signature = "v1=" + hex(HMAC-SHA256(key = secret's UTF-8 bytes,
//                                                 timestamp + "." + nonce + "." + raw body))
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** How far a request's timestamp may be from our clock (the service's window). */
export const MAX_SKEW_SECONDS = 300;

/** The header value the service sends for this body. */
export function signature(secret: string, timestamp: string, nonce: string, body: Buffer): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  mac.update(`${timestamp}.${nonce}.`);
  mac.update(body);
  return 'v1=' + mac.digest('hex');
}

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return typeof value === 'string' ? value : '';
}

/** Checks signature, timestamp window and nonce reuse. Nonces are kept only while their
 *  timestamp is inside the window: an older replay is refused as stale anyway. */
export class Verifier {
  private seen = new Map<string, number>();
  private nextPrune = 0;

  /** null when signed with `secret` and fresh, else why to refuse it. */
  check(secret: string, headers: IncomingHttpHeaders, body: Buffer,
        now: number = Math.floor(Date.now() / 1000)): string | null {
    const timestamp = header(headers, 'x-referee-timestamp');
    const nonce = header(headers, 'x-referee-nonce');
    const given = header(headers, 'x-referee-signature');
    if (!/^\d+$/.test(timestamp) || !nonce || !given) return 'unsigned request';
    const stamp = Number(timestamp);
    if (Math.abs(now - stamp) > MAX_SKEW_SECONDS) return 'stale timestamp';
    const expected = Buffer.from(signature(secret, timestamp, nonce, body));
    const actual = Buffer.from(given);
    // constant time; timingSafeEqual needs equal lengths, and unequal ones differ anyway
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
      return 'bad signature';
    }
    // only signed, fresh requests get here, so a forger cannot fill the table
    if (this.seen.has(nonce)) return 'replayed nonce';
    this.seen.set(nonce, stamp);
    if (now >= this.nextPrune) {
      for (const [n, t] of this.seen) if (t < now - MAX_SKEW_SECONDS) this.seen.delete(n);
      this.nextPrune = now + MAX_SKEW_SECONDS / 10;
    }
    return null;
  }
}
