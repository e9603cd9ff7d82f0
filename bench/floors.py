"""Honest floors for the server's pages (issue 45): a page's request against rendering its own
template from the context the view built, in one process (no network, no load): what the view adds
to the template's work — loading the game, replaying it, the session, the headers. The old rows
compare a 17 KB page with a trivial route, which does none of the page's work."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from flask import render_template, template_rendered

from tests.support import make_app

from .common import Row, finished_game_in_process, ms

REPEATS = 51


def cpu_median(fn: Any, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return sorted(times)[len(times) // 2]


def page_against_its_template(rows: list[Row]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = make_app(Path(folder), TESTING=False)
        client = app.test_client()
        gid = finished_game_in_process(client)
        url = f"/games/{gid}"
        seen: list[tuple[str, dict[str, Any]]] = []

        def keep(sender: Any, template: Any, context: dict[str, Any], **extra: Any) -> None:
            seen.append((template.name, dict(context)))

        with template_rendered.connected_to(keep, app):
            assert client.get(url).status_code == 200
        name, context = seen[0]
        with app.test_request_context(url):
            template_only = cpu_median(lambda: render_template(name, **context))
        request = cpu_median(lambda: client.get(url))
    ratio = request / template_only
    rows.append(
        Row(
            "Game page, 8-player finished game: the request against its template alone (CPU, in process)",
            ms(request),
            f"game.html rendered from the view's context {ms(template_only)}",
            ratio,
            "≤ 1.5×",
            ratio <= 1.5,
        )
    )


if __name__ == "__main__":
    found: list[Row] = []
    page_against_its_template(found)
    for row in found:
        print(row)
