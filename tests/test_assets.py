"""The app's static files under names that change with their content (issue 45): a page's stylesheet
and script are kept by the phone for a year under their digest, so opening a page costs no round
trip for them; a changed file is a new name."""

from __future__ import annotations

import re
from pathlib import Path

from support import make_app


def linked(client, page: str = "/") -> list[tuple[str, str]]:
    return re.findall(r'(/static/[^"?]+)\?v=([0-9a-f]{12})"', client.get(page).text)


def test_a_page_links_its_stylesheet_and_script_by_their_digest(client, app):
    found = dict(linked(client))
    assert {"/static/css/app.css", "/static/js/app.js"} <= set(found)
    for path, digest in found.items():
        answer = client.get(f"{path}?v={digest}")
        assert answer.status_code == 200
        assert answer.cache_control.immutable and answer.cache_control.max_age == 365 * 24 * 3600, path


def test_without_the_current_digest_a_file_is_asked_for_again_every_time(client):
    for path in ("/static/css/app.css", "/static/css/app.css?v=0123456789ab"):
        answer = client.get(path)
        assert answer.status_code == 200
        assert answer.cache_control.no_cache and not answer.cache_control.immutable, path


def test_a_changed_file_gets_a_new_name(tmp_path: Path):
    """A release that changes the stylesheet changes its digest: the phone fetches the new file."""
    copies = []
    for text in ("body { color: black; }", "body { color: navy; }"):
        folder = tmp_path / text[14:19]
        (folder / "css").mkdir(parents=True)
        (folder / "css" / "app.css").write_text(text)
        app = make_app(tmp_path / "instance", DATABASE=str(tmp_path / "db.sqlite"))
        app.static_folder = str(folder)
        with app.test_request_context():
            from flask import url_for

            copies.append(url_for("static", filename="css/app.css"))
    assert copies[0] != copies[1]


def test_the_scripts_modules_are_named_by_their_digest_and_only_that_inline_script_is_admitted(client):
    """app.js imports its modules by their plain names (static/js/outbox.js, …): the page's import map
    names each one under its digest, so a tap costs no round trip for them either, and the page's
    policy admits that one inline script by its hash, no other."""
    import base64
    import hashlib
    import json

    page = client.get("/")
    found = re.search(r'<script type="importmap">([^<]*)</script>', page.text)
    assert found is not None
    text = found.group(1)
    imports = json.loads(text)["imports"]
    modules = {path.name for path in (Path(__file__).parents[1] / "static" / "js").glob("*.js")} - {"app.js"}
    assert {key.rsplit("/", 1)[1] for key in imports} == modules and "outbox.js" in modules
    for plain, named in imports.items():
        path, _ = named.split("?v=")
        assert path == plain
        assert client.get(named).cache_control.immutable, named
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    policy = page.headers["Content-Security-Policy"]
    assert f"script-src 'self' 'sha256-{digest}';" in policy
    assert policy.count("sha256-") == 1 and "unsafe-inline" not in policy
    assert page.text.index('type="importmap"') < page.text.index('<script type="module"')
