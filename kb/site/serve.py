"""`kb serve`: preview the built site over HTTP on 127.0.0.1 (never on other interfaces)."""

from __future__ import annotations

import functools
import http.server
from pathlib import Path

from kb.errors import KbError

HOST = "127.0.0.1"


class _Handler(http.server.SimpleHTTPRequestHandler):
    # Explicit charsets: the pages and index shards are UTF-8 whatever the host's locale.
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript; charset=utf-8",
                      ".html": "text/html; charset=utf-8", ".json": "application/json"}


def server(out: Path, port: int = 8000) -> http.server.ThreadingHTTPServer:
    """An HTTP server for ``out/site`` bound to 127.0.0.1 (``port`` 0 picks a free one)."""
    site = Path(out) / "site"
    if not (site / "index.html").is_file():
        raise KbError(f"{site}: no site here; run `kb build` first or pass --out")
    handler = functools.partial(_Handler, directory=str(site))
    try:
        return http.server.ThreadingHTTPServer((HOST, port), handler)
    except OSError as exc:
        raise KbError(f"{HOST}:{port}: cannot listen: {exc.strerror or exc}") from None
