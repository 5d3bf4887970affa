// The replay's play/pause (at a chosen speed) and its perspective (spectator, reveal all, one
// seat). It drives match.js's own stepping: play presses "next"; a perspective changes the
// frame address match.js reads and redraws the current step. Finished matches only: the
// server serves no frame of a running match.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const form = $("replay");
  if (!form) return;
  const last = parseInt(form.dataset.last, 10);
  const at = () => parseInt($("slider").value, 10);
  let timer = null;
  const stop = () => { clearInterval(timer); timer = null; $("play").textContent = "▶ play"; };
  const tick = () => { if (at() >= last) stop(); else $("next").click(); };
  const start = () => {
    if (at() >= last) $("first").click();
    $("play").textContent = "❚❚ pause";
    timer = setInterval(tick, parseInt($("speed").value, 10));
  };
  $("play").hidden = false;
  $("speedbox").hidden = false;
  $("play").addEventListener("click", () => (timer ? stop() : start()));
  $("speed").addEventListener("change", () => { if (timer) { stop(); start(); } });
  document.addEventListener("keydown", (e) => {
    if (e.key !== " " || e.target.tagName === "SELECT" || e.target.tagName === "BUTTON") return;
    e.preventDefault();
    timer ? stop() : start();
  });
  const perspective = $("perspective");
  perspective.addEventListener("change", () => {
    const name = perspective.value;
    form.dataset.url = perspective.dataset.base + (name === "spectator" ? "" : name + "/");
    $("slider").dispatchEvent(new Event("input"));  // match.js redraws this step
  });
})();
