"""A page that is not there, as a page: a browser asking for HTML outside /v1 gets an HTML 404
with links onward; the API's paths, and every caller that does not prefer HTML, keep the
RFC 9457 problem details (code `http.not_found`)."""

from __future__ import annotations

from flask import render_template, request

from referee.api.problems import handle_http_exception


def wants_page() -> bool:
    """Whether this request is a browser's, for a page (not an API path)."""
    if request.path == "/v1" or request.path.startswith("/v1/"):
        return False
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "text/html"


def not_found(err):
    """404: an HTML page for a browser, else the problem details."""
    if not wants_page():
        return handle_http_exception(err)
    return render_template("web/404.html", path=request.path,
                           detail=err.description if err.description and
                           "requested URL was not found" not in err.description else None), 404


def install(app, service) -> None:
    """Answer 404s through `not_found` (a code's handler comes before the generic one)."""
    app.register_error_handler(404, not_found)
