'use strict';
// A few calls of the referee's REST API (/v1) with Node's own fetch; problems become errors.

/** A problem detail from the service: code, message (detail), status and the whole body. */
class ProblemError extends Error {
  constructor(problem, status) {
    super(`${problem.code}: ${problem.detail || ''}`);
    this.problem = problem;
    this.code = problem.code;
    this.status = status;
  }
}

/** The /v1 base of a service URL given with or without /v1. */
function apiBase(url) {
  const root = url.replace(/\/+$/, '');
  return root.endsWith('/v1') ? root : `${root}/v1`;
}

/** One request; the decoded JSON, or a ProblemError. A seat acts with its `token`; anything
 * else sends the account key `key` (default $REFEREE_KEY; none is needed against the embedded
 * default on this machine). */
async function call(url, method, path, { body, token, key, timeoutMs = 30000 } = {}) {
  const headers = { 'User-Agent': 'referee-js/1' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const accountKey = key || process.env.REFEREE_KEY;
  if (token) headers.Authorization = `Bearer ${token}`;
  else if (accountKey) headers.Authorization = `Bearer ${accountKey}`;
  const response = await fetch(apiBase(url) + path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const problem = data && data.code ? data
      : { code: `http.${response.status}`, detail: text.slice(0, 500), status: response.status };
    throw new ProblemError(problem, response.status);
  }
  return data;
}

module.exports = { ProblemError, apiBase, call };
