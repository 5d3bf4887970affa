// A seat's own page: its view of the board, and its pending decision as controls it can
// click (buttons, or a small form when a move has several parameters), or type as JSON.
// The token comes from #token=… (or the form), stays in this tab's session storage, and is
// sent only as an Authorization header. Plain JS, no build.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const seat = $("seatview");
  if (!seat) return;
  const key = "seat-token:" + location.pathname;
  const controls = $("controls");
  let token = null;
  let busy = false, again = false, source = null;
  let onPage = null;  // "<status> <version>" of the board and controls on the page
  let choices = [];  // each legal move with places on the board: {places, pick()}
  let lastPick = { place: null, n: -1 };

  function status(text, bad) {
    $("status").textContent = text;
    $("status").classList.toggle("error", !!bad);
  }

  // A refused token: forget it (a reload then asks for one), say so in red, ask again.
  function refused(code, detail, http) {
    sessionStorage.removeItem(key);
    token = null;
    seat.replaceChildren();
    controls.replaceChildren();
    $("play").hidden = true;
    $("tokenform").hidden = false;
    status("This seat token was refused (" + http + " " + code + "): " + detail.replace(/\.?$/, ".") +
           " It is no longer saved in this tab; enter the right token to play.", true);
  }

  async function problem(res) {
    try { const body = await res.json(); return [body.code || res.status, body.detail || body.title || ""]; }
    catch (err) { return [String(res.status), res.statusText]; }
  }

  const auth = () => ({ Authorization: "Bearer " + token });

  // Board and controls, fetched again; a refresh asked for while one runs runs once more after.
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      do { again = false; await redraw(); } while (again && token);
    } finally { busy = false; }
  }

  async function redraw() {
    if (!token) return;
    let res;
    try {
      res = await fetch(seat.dataset.url, { headers: auth(), cache: "no-store" });
    } catch (err) { status("Connection lost, retrying…", true); await sleep(2000); again = true; return; }
    if (res.status === 401 || res.status === 403) { const [c, d] = await problem(res); refused(c, d, res.status); return; }
    if (!res.ok) { const [c, d] = await problem(res); status("The service refused: " + c + " " + d, true); return; }
    const state = res.headers.get("X-Status"), version = res.headers.get("X-Version");
    // the same version again (the stream's first event repeats the one on the page): keep
    // the page, so a move the player has picked on the board is not dropped under them
    if (onPage === state + " " + version) return;
    seat.innerHTML = await res.text();
    await drawControls();
    if (controls.dataset.version === version) onPage = state + " " + version;
    if (!token) return;
    status(state === "active" ? "Live: version " + version + ", updates as moves are committed."
                              : "Finished (" + state + ") at version " + version + ".", false);
  }

  async function drawControls() {
    const res = await fetch(seat.dataset.controls, { headers: auth(), cache: "no-store" });
    if (res.status === 401 || res.status === 403) { const [c, d] = await problem(res); refused(c, d, res.status); return; }
    if (!res.ok) return;
    const c = await res.json();
    $("play").hidden = false;
    const parts = [];
    choices = [];
    if (c.status !== "active") {
      parts.push(el("p", "muted", "The match is over."));
    } else if (!c.must_act) {
      parts.push(el("p", "muted", "Not your turn: waiting for the other seats."));
    } else {
      parts.push(el("p", "decision", c.decision.words));
      if (c.decision.note) parts.push(el("p", "sealed", c.decision.note));
      c.groups.forEach((g) => parts.push(group(g, c.version)));
    }
    controls.replaceChildren(...parts);
    controls.dataset.version = c.version;
    controls.dataset.state = c.status !== "active" ? "over" : c.must_act ? "act" : "wait";
    controls.dataset.kind = c.must_act ? c.decision.kind : "";
    controls.dataset.sealed = c.must_act && c.decision.sealed ? "true" : "false";
    $("jsonmove").hidden = !c.must_act;
    $("jsonform").dataset.version = c.version;
    markPlaces();
  }

  // The board's places a legal move acts on take a click: it picks that move's control
  // (a button is focused, a form's choices set), and clicking again steps to the next move
  // acting there. Nothing is sent until the player presses the control.
  function markPlaces() {
    const wanted = new Set(choices.flatMap((c) => c.places));
    seat.querySelectorAll("svg.board g.place").forEach((g) => {
      g.classList.toggle("can", wanted.has(g.dataset.place));
      g.classList.remove("picked");
    });
  }

  seat.addEventListener("click", (e) => {
    for (let g = e.target.closest("g.place"); g; g = g.parentElement.closest("g.place")) {
      const here = choices.filter((c) => c.places.includes(g.dataset.place));
      if (!here.length) continue;
      const n = lastPick.place === g.dataset.place ? (lastPick.n + 1) % here.length : 0;
      lastPick = { place: g.dataset.place, n: n };
      seat.querySelectorAll("g.place.picked").forEach((x) => x.classList.remove("picked"));
      controls.querySelectorAll(".picked").forEach((x) => x.classList.remove("picked"));
      g.classList.add("picked");
      here[n].pick();
      return;
    }
  });

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A few moves: one button each. Many moves, or moves with several parameters: a form.
  function group(g, version) {
    const box = el("div", "group");
    box.dataset.type = g.type;
    box.append(el("h3", null, g.type.replace(/_/g, " ")));
    const asForm = g.moves.length > 12 || (g.moves.length > 4 && (g.fields.length >= 2 || amounts(g)));
    box.append(asForm ? form(g, version) : buttons(g, version));
    return box;
  }

  // A field that is a number (a bid's count, points): chosen from a list, not one button each.
  const amounts = (g) => g.fields.some((f) => g.moves.every((m) => typeof m.move[f] === "number"));

  function buttons(g, version) {
    const list = el("div", "moves");
    g.moves.forEach((m) => {
      const b = el("button", "btn play", m.words);
      b.type = "button";
      b.title = JSON.stringify(m.move);
      b.addEventListener("click", () => submit(m.move, version));
      if (m.places && m.places.length) {
        choices.push({ places: m.places, pick: () => { b.classList.add("picked"); b.focus(); } });
      }
      list.append(b);
    });
    return list;
  }

  // One select per varying field; each lists only the values legal with the choices before it.
  function form(g, version) {
    const f = el("form", "moveform");
    const fields = g.fields.length ? g.fields : ["move"];
    const selects = fields.map((name) => {
      const s = el("select");
      s.name = name;
      const label = el("label", null, name.replace(/_/g, " ") + " ");
      label.append(s);
      f.append(label, " ");
      return s;
    });
    const words = el("span", "words");
    const go = el("button", "btn play", "Play");
    f.append(go, " ", words);
    const keyOf = (m, name) => JSON.stringify(m.move[name]);
    const matching = (upto) => g.moves.filter((m) =>
      selects.slice(0, upto).every((s, i) => fields.length === 1 || keyOf(m, fields[i]) === s.value));
    function fill(from) {
      for (let i = from; i < selects.length; i++) {
        const s = selects[i], keep = s.value, seen = new Set();
        s.replaceChildren();
        matching(i).forEach((m, n) => {
          const value = fields.length === 1 ? String(g.moves.indexOf(m)) : keyOf(m, fields[i]);
          if (seen.has(value)) return;
          seen.add(value);
          const o = el("option", null, fields.length === 1 ? m.words : shown(m.move[fields[i]]));
          o.value = value;
          s.append(o);
        });
        if (seen.has(keep)) s.value = keep;
      }
      const m = chosen();
      words.textContent = m ? m.words : "";
    }
    const chosen = () => fields.length === 1 ? g.moves[parseInt(selects[0].value, 10)]
                                             : matching(selects.length)[0];
    selects.forEach((s, i) => s.addEventListener("change", () => fill(i + 1)));
    fill(0);
    // a place clicked on the board: set each select to this move's value, in order
    const choose = (m) => {
      selects.forEach((s, i) => {
        s.value = fields.length === 1 ? String(g.moves.indexOf(m)) : keyOf(m, fields[i]);
        fill(i + 1);
      });
      f.classList.add("picked");
      go.focus();
    };
    g.moves.forEach((m) => {
      if (m.places && m.places.length) choices.push({ places: m.places, pick: () => choose(m) });
    });
    f.addEventListener("submit", (e) => { e.preventDefault(); const m = chosen(); if (m) submit(m.move, version); });
    return f;
  }

  const shown = (v) => Array.isArray(v) ? v.join(", ") : v === null ? "none" : String(v);

  // POST the move with the version shown; a refusal's code and detail are shown inline.
  async function submit(move, version) {
    const out = $("rejection");
    out.textContent = "";
    delete out.dataset.code;
    controls.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    onPage = null;  // whatever comes back, draw the match again (the controls were disabled)
    let res;
    try {
      res = await fetch(seat.dataset.moves, {
        method: "POST", cache: "no-store",
        headers: { ...auth(), "Content-Type": "application/json" },
        body: JSON.stringify({ move: move, expected_version: version }),
      });
    } catch (err) { out.textContent = "The move was not sent: " + err; refresh(); return; }
    if (!res.ok) {
      const [c, d] = await problem(res);
      if ((res.status === 401 || res.status === 403) && String(c).startsWith("auth.")) { refused(c, d, res.status); return; }
      out.textContent = "Rejected: " + c + ": " + d;
      out.dataset.code = c;
    }
    refresh();  // accepted or not, show the match as it is now
  }

  $("jsonform").addEventListener("submit", (e) => {
    e.preventDefault();
    const out = $("rejection");
    let move;
    try { move = JSON.parse($("jsontext").value); }
    catch (err) { out.textContent = "Not JSON: " + err.message; out.dataset.code = "json"; return; }
    submit(move, parseInt($("jsonform").dataset.version, 10));
  });

  // Follow the match: each public event (it never carries a seat's hidden moves) means
  // "fetch again with the token"; without an event stream, hold a request until it moves.
  function follow() {
    if (seat.dataset.events && window.EventSource) {
      if (source) source.close();
      source = new EventSource(seat.dataset.events);
      source.addEventListener("version", refresh);
      source.addEventListener("over", () => { source.close(); refresh(); });
      refresh();
      return;
    }
    (async () => {
      let version = -1;
      while (token) {
        let res;
        try { res = await fetch(seat.dataset.url + "?after=" + version, { headers: auth(), cache: "no-store" }); }
        catch (err) { await sleep(2000); continue; }
        if (!res.ok) { refresh(); return; }
        version = parseInt(res.headers.get("X-Version"), 10);
        await refresh();
        if (res.headers.get("X-Status") !== "active") return;
        await sleep(300);
      }
    })();
  }

  function open(value) {
    if (!value) return;
    token = value;
    sessionStorage.setItem(key, token);
    history.replaceState(null, "", location.pathname);  // the token leaves the address bar
    $("tokenform").hidden = true;
    status("Opening your seat…", false);
    follow();
  }

  $("tokenform").addEventListener("submit", (e) => { e.preventDefault(); open($("token").value.trim()); });
  const m = /token=([^&]+)/.exec(location.hash);
  open(m ? decodeURIComponent(m[1]) : sessionStorage.getItem(key));
  window.addEventListener("hashchange", () => location.reload());  // a new #token=…
})();
