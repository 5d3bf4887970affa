// The shared test vectors (generated from the service's own signing code) against
// signature() and the Verifier: run by node's built-in test runner.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import { MAX_SKEW_SECONDS, Verifier, signature } from './signing';

interface Vector { secret: string; timestamp: string; nonce: string; body: string; signature: string }

const FILE = process.env.SIGNATURE_VECTORS
  || path.resolve(__dirname, '..', '..', 'protocol', 'signature-vectors.json');

test('signature vectors', (t) => {
  const vectors: Vector[] = JSON.parse(fs.readFileSync(FILE, 'utf8')).vectors;
  assert.ok(vectors.length > 0);
  for (const v of vectors) {
    // the file may give the bare hex digest or the header value; the header has "v1="
    const want = v.signature.startsWith('v1=') ? v.signature : `v1=${v.signature}`;
    const body = Buffer.from(v.body, 'utf8');
    assert.equal(signature(v.secret, v.timestamp, v.nonce, body), want);
    const now = Number(v.timestamp);
    const verifier = new Verifier();
    const headers = (ts: string, nonce: string) => ({
      'x-referee-timestamp': ts, 'x-referee-nonce': nonce, 'x-referee-signature': want });
    assert.equal(verifier.check(v.secret, headers(v.timestamp, v.nonce), body, now + MAX_SKEW_SECONDS), null);
    assert.equal(verifier.check(v.secret, headers(v.timestamp, v.nonce), body, now), 'replayed nonce');
    assert.equal(verifier.check(v.secret, headers(v.timestamp, v.nonce + 'x'), body, now), 'bad signature');
    assert.equal(verifier.check(v.secret, headers(v.timestamp, v.nonce), Buffer.concat([body, Buffer.from(' ')]), now), 'bad signature');
    assert.equal(verifier.check(v.secret, headers(v.timestamp, 'fresh'), body, now + MAX_SKEW_SECONDS + 1), 'stale timestamp');
    assert.equal(verifier.check(v.secret, headers(v.timestamp, 'fresh'), body, now - MAX_SKEW_SECONDS - 1), 'stale timestamp');
    assert.equal(verifier.check(v.secret, headers('', v.nonce), body, now), 'unsigned request');
    assert.equal(verifier.check(v.secret, {}, body, now), 'unsigned request');
  }
  t.diagnostic(`checked ${vectors.length} signature vectors from signature-vectors.json`);
});
