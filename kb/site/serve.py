"""`kb serve`: preview the built site over HTTP on 127.0.0.1 (never on other interfaces)."""

from __future__ import annotations

import functools
import http
import http.server
import sys
import urllib.parse
from pathlib import Path

from kb.corpus.safe import printable
from kb.errors import KbError

HOST = "127.0.0.1"


class _Handler(http.server.SimpleHTTPRequestHandler):
    # Explicit charsets: the pages and index shards are UTF-8 whatever the host's locale.
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript; charset=utf-8",
        ".html": "text/html; charset=utf-8",
        ".json": "application/json",
    }

    def send_head(self):
        # The standard handler lets a NUL (%00) reach os.open, whose ValueError ends the
        # connection with a traceback; bytes that are not UTF-8 and names too long for the
        # file system are as much "not here".
        path = urllib.parse.unquote(
            self.path.split("?", 1)[0].split("#", 1)[0], errors="surrogateescape"
        )
        if "\x00" in path:
            self.send_error(http.HTTPStatus.BAD_REQUEST, "NUL in the path")
            return None
        try:
            return super().send_head()
        except (OSError, ValueError, UnicodeError):
            self.send_error(http.HTTPStatus.NOT_FOUND, "File not found")
            return None

    def log_message(self, format, *args):  # noqa: A002 - the standard method's signature
        # A request line is the client's text: never raw to the terminal.
        sys.stderr.write(
            printable(
                f"{self.address_string()} - - [{self.log_date_time_string()}] {format % args}"
            )
            + "\n"
        )


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
