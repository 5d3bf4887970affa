// Starts Swagger UI on /v1/docs from the packaged bundle (a file, not an inline script: the
// pages' Content-Security-Policy allows scripts from this service only).
"use strict";
(function () {
  const box = document.getElementById("swagger-ui-container");
  const config = Object.assign({ url: box.dataset.specUrl, dom_id: "#swagger-ui-container" },
                               JSON.parse(box.dataset.config || "{}"));
  window.ui = window.SwaggerUIBundle(config);
})();
