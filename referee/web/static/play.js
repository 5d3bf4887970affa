// The home page's "Play against bots": create a match with one remote seat (yours) and bots
// in the others through POST /v1/matches, then open that seat's page with its token in the
// fragment (never sent to the server in a URL). Plain JS, no build.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const form = $("playform");
  if (!form) return;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const out = $("playerror");
    out.textContent = "";
    const botId = $("playbotid").value.trim();
    const bot = botId ? "bot:" + botId.replace(/^bot:/, "") : $("playbot").value;
    const seats = ["remote"].concat(Array(parseInt($("playbots-count").value, 10)).fill(bot));
    const headers = { "Content-Type": "application/json" };
    const key = $("playkey").value.trim();
    if (key) headers.Authorization = "Bearer " + key;
    let res;
    try {
      res = await fetch(form.dataset.url, { method: "POST", headers: headers, cache: "no-store",
                                            body: JSON.stringify({ game: $("playgame").value, seats: seats }) });
    } catch (err) { out.textContent = "The service did not answer: " + err; return; }
    let body = {};
    try { body = await res.json(); } catch (err) { /* a body that is not JSON: the status says it */ }
    if (res.status === 201) {
      location.assign("/matches/" + encodeURIComponent(body.id) + "/seat#token=" +
                      encodeURIComponent(body.tokens["0"]));
      return;
    }
    const code = body.code || res.status, detail = body.detail || res.statusText;
    out.textContent = res.status === 401
      ? "Creating a match needs an account key (" + code + "): enter your rk_… key above. " + detail
      : "Not created: " + code + ": " + detail;
  });
})();
