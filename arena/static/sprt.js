// The tournament page's live SPRT block: fetched again every 2 s while the test runs, and
// left as it is once the tournament's status is no longer "running".
"use strict";
(function () {
  const box = document.getElementById("sprtlive");
  if (!box || !box.dataset.running) return;
  async function tick() {
    try {
      const res = await fetch(box.dataset.url, { cache: "no-store" });
      if (res.ok) box.innerHTML = await res.text();
    } catch (e) { /* a dropped poll: the next one tries again */ }
    const status = box.querySelector("#sprtprogress");
    if (!status || status.dataset.status === "running") setTimeout(tick, 2000);
  }
  setTimeout(tick, 2000);
})();
