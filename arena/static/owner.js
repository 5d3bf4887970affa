// The bot page's owner view: the owner's account key (typed in, or after #key= in the address)
// goes only in an Authorization header; the address bar drops it at once.
"use strict";
(function () {
  const form = document.getElementById("ownerform");
  if (!form) return;
  async function show(secret) {
    history.replaceState(null, "", location.pathname);
    const res = await fetch(form.dataset.url, { headers: { Authorization: "Bearer " + secret } });
    document.getElementById("ownerstatus").textContent = res.ok ? "" : "refused (" + res.status + ")";
    document.getElementById("owner").innerHTML = res.ok ? await res.text() : "";
  }
  form.onsubmit = (e) => { e.preventDefault(); show(document.getElementById("secret").value.trim()); };
  const fromHash = () => {
    const m = /key=([^&]+)/.exec(location.hash);
    if (m) show(decodeURIComponent(m[1]));
  };
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
