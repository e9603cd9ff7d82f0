"""The app's own static files under names that change with their content (issue 45): a page asks for
``/static/css/app.css?v=<digest>``, and that answer is kept by the phone for a year without asking
again (immutable), so a tap that opens a page costs no round trip for the stylesheet and the script.
A new release changes a file's digest and so its name: the phone fetches the new file. A request
without the current digest (an old page, a hand-typed address) is answered as before: revalidated.

The script is ES modules (static/js/app.js imports the others by their plain names): a page's import
map names each module by its digest too, and the page's Content-Security-Policy admits that one inline
script by its hash (every other script stays refused)."""

from __future__ import annotations

import base64
import functools
import hashlib
import json
from pathlib import Path
from typing import Any

from flask import Flask, Response, g, request, url_for
from markupsafe import Markup

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

    @functools.cache  # the same modules for every page of a release
    def modules() -> list[str]:
        """The script's modules app.js imports: every other file of static/js/."""
        folder = Path(app.static_folder or "static") / "js"
        return [f"js/{module.name}" for module in sorted(folder.glob("*.js")) if module.name != "app.js"]

    def import_map() -> Markup:
        """The page's import map: each of the script's modules under its digest (a tag, its hash kept)."""
        imports = {}
        for filename in modules():
            url = url_for("static", filename=filename)  # the app's own prefix behind a proxy, and ?v=
            imports[url.split("?")[0]] = url
        text = json.dumps({"imports": imports}, separators=(",", ":"))
        g.import_map_hash = "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        return Markup(f'<script type="importmap">{text}</script>')

    def admit_import_map(response: Response) -> Response:
        """The page's own import map, and no other inline script, admitted by its hash."""
        policy = response.headers.get("Content-Security-Policy")
        hashed = g.get("import_map_hash")
        if policy and hashed:
            response.headers["Content-Security-Policy"] = policy.replace(
                "script-src 'self'", f"script-src 'self' '{hashed}'", 1
            )
        return response

    app.url_defaults(versioned)
    app.after_request(cached)
    app.after_request(admit_import_map)
    app.add_template_global(import_map)
