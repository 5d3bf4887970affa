// Reconnects a match's event stream mid-match and checks that every version comes exactly
// once, in order (issue 40). Node 20, no packages: fetch and a hand-read text/event-stream.
//
//   node tests/clients/sse_reconnect.mjs <service url>      (REFEREE_KEY: an organiser key)
//
// It creates a Dschunke match with three remote seats and plays every seat with its first
// legal move. Its stream is dropped twice while moves are made (after version 0, and again
// mid-match) and resumed with Last-Event-ID; the second resumption reads while the match is
// played on to its end. Prints one JSON line; exits 1 with the reason on stderr otherwise.

const base = process.argv[2];
const key = process.env.REFEREE_KEY;
const auth = (token) => (token ? { Authorization: `Bearer ${token}` } : {});

async function call(method, path, token, body) {
  const res = await fetch(base + path, {
    method,
    headers: { ...auth(token), ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

// The stream's events as {event, id, data}, until `stop(event)` says so or the stream ends.
async function readEvents(url, lastEventId, stop) {
  const controller = new AbortController();
  const headers = lastEventId === null ? {} : { "Last-Event-ID": String(lastEventId) };
  const res = await fetch(url, { headers, signal: controller.signal });
  if (res.status !== 200) throw new Error(`stream answered ${res.status}`);
  const decoder = new TextDecoder();
  const got = [];
  let text = "";
  try {
    for await (const chunk of res.body) {
      text += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = text.indexOf("\n\n")) >= 0) {
        const message = {};
        for (const line of text.slice(0, end).split("\n")) {
          if (line.startsWith(":")) continue;  // a heartbeat comment
          const colon = line.indexOf(":");
          message[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, "");
        }
        text = text.slice(end + 2);
        if (!message.event) continue;  // the retry: advice
        const event = { event: message.event, id: Number(message.id), data: JSON.parse(message.data) };
        got.push(event);
        if (stop(event)) return got;
      }
    }
  } finally {
    controller.abort();  // the client goes away, as a dropped connection would
  }
  return got;
}

// Make `count` moves (Infinity: to the end); each the first legal move of the first seat to act.
async function play(matchId, tokens, count) {
  for (let made = 0; made < count; made++) {
    const match = await call("GET", `/v1/matches/${matchId}`);
    if (match.status !== "active") return match.version;
    const seat = match.to_act[0].seat;
    const prompt = await call("GET", `/v1/matches/${matchId}/prompt`, tokens[seat]);
    await call("POST", `/v1/matches/${matchId}/moves`, tokens[seat],
               { move: prompt.legal_moves[0], expected_version: prompt.version });
  }
  return (await call("GET", `/v1/matches/${matchId}`)).version;
}

async function main() {
  const created = await call("POST", "/v1/matches", key,
                             { game: "dschunke", seats: ["remote", "remote", "remote"] });
  const { id, tokens } = created;
  const url = `${base}/v1/matches/${id}/events`;
  const seen = [];
  const take = (events) => { for (const e of events) seen.push(e); return events.at(-1).id; };

  let last = take(await readEvents(url, null, (e) => e.event === "version"));  // version 0
  const mid = await play(id, tokens, 30);                      // 30 versions missed
  last = take(await readEvents(url, last, (e) => e.id >= mid - 10));  // resumed, dropped again
  await play(id, tokens, 25);                                  // 35 more missed
  const reading = readEvents(url, last, (e) => e.event === "over");   // resumed to the end
  const final = await play(id, tokens, Infinity);
  take(await reading);

  const versions = seen.filter((e) => e.event === "version").map((e) => e.id);
  const expected = Array.from({ length: final + 1 }, (_, v) => v);
  const problems = [];
  if (JSON.stringify(versions) !== JSON.stringify(expected))
    problems.push(`versions ${JSON.stringify(versions)}, expected 0..${final}`);
  if (seen.some((e) => e.event === "snapshot")) problems.push("a snapshot came");
  if (seen.some((e) => e.event === "version" && e.data.version !== e.id))
    problems.push("an event's data is not its version");
  const over = seen.at(-1);
  if (over.event !== "over" || over.id !== final) problems.push(`last event ${JSON.stringify(over)}`);
  if (problems.length) throw new Error(problems.join("; "));
  console.log(JSON.stringify({ match: id, final, versions: versions.length, reconnects: 2 }));
}

main().catch((err) => { console.error(err.message); process.exit(1); });
