'use strict';
// Bot protocol v1 request signing, with node:crypto only.
//
// The service signs every POST to a bot with three headers:
//   X-Referee-Timestamp  unix seconds
//   X-Referee-Nonce      unique per request
//   X-Referee-Signature  "v1=" + hex HMAC-SHA256(secret, timestamp + "." + nonce + "." + body)

const crypto = require('node:crypto');

const MAX_SKEW_SECONDS = 300;

/** The v1 signature of a raw request body (a Buffer). */
function signature(secret, timestamp, nonce, body) {
  const hmac = crypto.createHmac('sha256', secret);
  hmac.update(`${timestamp}.${nonce}.`);
  hmac.update(body);
  return 'v1=' + hmac.digest('hex');
}

/** The three signing headers for a body (what the service sends). */
function sign(secret, body, now = Date.now() / 1000) {
  const timestamp = String(Math.floor(now));
  const nonce = crypto.randomBytes(12).toString('hex');
  return {
    'X-Referee-Timestamp': timestamp,
    'X-Referee-Nonce': nonce,
    'X-Referee-Signature': signature(secret, timestamp, nonce, body),
  };
}

/** Checks signatures, the timestamp window and nonce reuse. */
class Verifier {
  constructor(maxSkew = MAX_SKEW_SECONDS) {
    this.maxSkew = maxSkew;
    this.seen = new Map(); // nonce -> timestamp, kept while the timestamp is in the window
    this.nextPrune = 0;
  }

  /** null if the request is signed with `secret` and fresh, else why to refuse it. */
  check(secret, headers, body, now = Date.now() / 1000) {
    const timestamp = headers['x-referee-timestamp'] || '';
    const nonce = headers['x-referee-nonce'] || '';
    const given = headers['x-referee-signature'] || '';
    if (!/^\d+$/.test(timestamp) || !nonce || !given) return 'unsigned request';
    if (Math.abs(now - Number(timestamp)) > this.maxSkew) return 'stale timestamp';
    const expected = Buffer.from(signature(secret, timestamp, nonce, body));
    const actual = Buffer.from(given);
    // timingSafeEqual needs equal lengths; a length mismatch is a mismatch anyway
    if (expected.length !== actual.length || !crypto.timingSafeEqual(expected, actual)) {
      return 'bad signature';
    }
    return this.remember(nonce, Number(timestamp), now);
  }

  remember(nonce, timestamp, now) {
    if (this.seen.has(nonce)) return 'replayed nonce';
    this.seen.set(nonce, timestamp);
    if (now >= this.nextPrune) {
      // an entry older than the window would be refused as stale anyway: forget it
      for (const [n, t] of this.seen) if (t < now - this.maxSkew) this.seen.delete(n);
      this.nextPrune = now + this.maxSkew / 10;
    }
    return null;
  }
}

module.exports = { MAX_SKEW_SECONDS, Verifier, sign, signature };
