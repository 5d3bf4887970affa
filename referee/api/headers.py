"""Security headers: every HTML page gets a Content-Security-Policy that allows only this
service's own scripts, styles, images and connections, and may not be framed; every answer
says its content type is not to be sniffed.

The pages keep to it: no inline script, style attribute or event handler (the board SVGs use
presentation attributes, which a CSP does not govern), and the API docs pages load Swagger UI
and ReDoc from the packaged copies under referee/api/static (README there); ReDoc alone needs
inline styles.
"""

from __future__ import annotations

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; object-src 'none'; base-uri 'self'")

REDOC_CSP = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'") + \
    "; worker-src 'self' blob:"
"""/v1/redoc only: the packaged ReDoc writes its styles as <style> elements of its own
(styled-components) and runs its search in a worker it makes from a blob: of its own bundle;
scripts stay 'self' only. Swagger UI (/v1/docs) keeps the strict policy."""

HTML = {"Content-Security-Policy": CSP, "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff"}
REDOC = {**HTML, "Content-Security-Policy": REDOC_CSP}
REDOC_PATH = "/v1/redoc"


def secure(response):
    """Add the security headers to an answer (the HTML ones to an HTML page)."""
    headers = response.headers
    if headers.get("Content-Type", "").startswith("text/html"):
        from flask import request  # only for pages: the JSON answers skip the lookup

        headers.update(REDOC if request.path == REDOC_PATH else HTML)
    else:
        headers["X-Content-Type-Options"] = "nosniff"
    return response


def init_app(app) -> None:
    """Send the headers on every answer of `app`."""
    app.after_request(secure)
