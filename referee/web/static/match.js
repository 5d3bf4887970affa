// Live updates and replay stepping for the match pages. Plain JS, no build.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  // Live: hold a request until the match moves past the version shown, then swap the fragment.
  async function follow(url, holder, headers, onStatus) {
    let version = -1;
    for (;;) {
      let res;
      try {
        res = await fetch(url + "?after=" + version, { headers: headers, cache: "no-store" });
      } catch (err) { onStatus("connection lost, retrying…"); await sleep(2000); continue; }
      if (!res.ok) { onStatus("the service refused: " + res.status + " " + (await res.text()).slice(0, 200)); return; }
      const status = res.headers.get("X-Status");
      version = parseInt(res.headers.get("X-Version"), 10);
      holder.innerHTML = await res.text();
      onStatus(status === "active" ? "Live: version " + version + ", updates as moves are committed."
                                   : "Finished (" + status + ") at version " + version + ".");
      if (status !== "active") return;
      await sleep(300);  // a fast match (bots answering in microseconds) is redrawn ~3 times a second
    }
  }

  // With the match's event stream (SSE), redraw when a version event comes; otherwise
  // hold a request open until the match moves (long poll).
  function onEvents(eventsUrl, url, holder, onStatus) {
    const source = new EventSource(eventsUrl);
    let busy = false, again = false;
    async function redraw() {
      if (busy) { again = true; return; }
      busy = true;
      do {
        again = false;
        const res = await fetch(url, { cache: "no-store" });
        if (res.ok) {
          const status = res.headers.get("X-Status"), version = res.headers.get("X-Version");
          holder.innerHTML = await res.text();
          onStatus(status === "active" ? "Live: version " + version + ", updates as moves are committed."
                                       : "Finished (" + status + ") at version " + version + ".");
        }
        await sleep(300);  // a fast match is redrawn ~3 times a second, not once per move
      } while (again);  // a version that came while drawing: draw once more
      busy = false;
    }
    source.addEventListener("version", redraw);
    source.addEventListener("snapshot", redraw);  // missed versions past the window: the present
    source.addEventListener("over", () => { source.close(); redraw(); });
  }

  const live = $("live");
  if (live) {
    const url = location.pathname.replace(/\/$/, "") + "/board";
    const box = $("livebox");
    const onStatus = (text) => {
      $("status").textContent = text;
      if (text.startsWith("Finished")) $("replaylink").hidden = false;  // now it can be replayed
    };
    if (box.dataset.events && window.EventSource) onEvents(box.dataset.events, url, box, onStatus);
    else follow(url, box, {}, onStatus);
  }

  // Replay: buttons, slider, arrow keys and #move=N all load the frame after that move.
  const form = $("replay");
  if (form) {
    const last = parseInt(form.dataset.last, 10);
    let wanted = parseInt($("frame").dataset.step, 10);
    async function show(n) {
      n = Math.max(0, Math.min(last, n));
      wanted = n;
      $("slider").value = n;
      $("step").textContent = n;
      history.replaceState(null, "", location.pathname + "#move=" + n);
      document.querySelectorAll("#moves li.current").forEach((li) => li.classList.remove("current"));
      const item = $("m" + n);
      if (item) { item.classList.add("current"); item.scrollIntoView({ block: "nearest" }); }
      const res = await fetch(form.dataset.url + n);
      const html = res.ok ? await res.text() : null;
      if (html === null || n !== wanted) return;  // a later step was asked for meanwhile
      $("frame").outerHTML = html;
    }
    const step = (d) => show(wanted + d);
    $("first").onclick = (e) => { e.preventDefault(); show(0); };
    $("prev").onclick = (e) => { e.preventDefault(); step(-1); };
    $("next").onclick = (e) => { e.preventDefault(); step(1); };
    $("last").onclick = (e) => { e.preventDefault(); show(last); };
    $("slider").oninput = () => show(parseInt($("slider").value, 10));
    form.onsubmit = (e) => { e.preventDefault(); };
    document.querySelectorAll("#moves a").forEach((a) => {
      a.onclick = (e) => { e.preventDefault(); show(parseInt(a.parentElement.dataset.step, 10)); };
    });
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
      const moves = { ArrowLeft: -1, ArrowRight: 1 };
      if (e.key in moves) { e.preventDefault(); step(moves[e.key]); }
      if (e.key === "Home") { e.preventDefault(); show(0); }
      if (e.key === "End") { e.preventDefault(); show(last); }
    });
    const fromHash = () => { const m = /move=(\d+)/.exec(location.hash); if (m) show(parseInt(m[1], 10)); };
    window.addEventListener("hashchange", fromHash);
    const current = document.querySelector("#moves li.current");
    if (current) current.scrollIntoView({ block: "nearest" });
    fromHash();
  }
  // A seat's own page has its own script (seat.js): its view, its controls, its moves.
})();
