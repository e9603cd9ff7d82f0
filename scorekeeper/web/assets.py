"""The app's own static files under names that change with their content (issue 45): a page asks for
``/static/css/app.css?v=<digest>``, and that answer is kept by the phone for a year without asking
again (immutable), so a tap that opens a page costs no round trip for the stylesheet and the script.
A new release changes a file's digest and so its name: the phone fetches the new file. A request
without the current digest (an old page, a hand-typed address) is answered as before: revalidated."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

from flask import Flask, Response, request

A_YEAR = 365 * 24 * 3600


def register(app: Flask) -> None:
    @functools.cache  # a release's files do not change while it serves
    def digest(filename: str) -> str | None:
        path = Path(app.static_folder or "static") / filename
        try:
            return hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        except OSError:
            return None

    def versioned(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            found = digest(values["filename"])
            if found:
                values["v"] = found

    def cached(response: Response) -> Response:
        """Kept for a year when asked for under the file's current digest (the file served is that one)."""
        if request.endpoint != "static" or response.status_code != 200:
            return response
        filename = (request.view_args or {}).get("filename", "")
        if request.args.get("v") and request.args.get("v") == digest(filename):
            response.cache_control.public = True
            response.cache_control.max_age = A_YEAR
            response.cache_control.immutable = True
            response.cache_control.no_cache = None
        return response

    app.url_defaults(versioned)
    app.after_request(cached)
