"""PDFs: a filled scorepad against a blank one, the worker's CPU, memory after many."""

from __future__ import annotations

import gc
import io
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.support import (
    PLAYERS8,
    make_app,
)

from .common import Row, finished_game_in_process, median_time, ms


def filled_against_blank(client: Any, game_id: int) -> Row:
    """The filled scorepad of an 8-player finished game against the blank sheet for the same table
    (same players, ruleset and paper), both through the app, in CPU time. Requests alternate, and
    the ratio is the median of each filled request over the blank one next to it: a shared VM's
    slow spells (±10 % here) then slow both sides of a pair instead of one side of the whole run."""
    from pypdf import PdfReader

    filled_url = f"/games/{game_id}/scorepad.pdf?paper=letter"
    blank_url = f"/scorepad/blank.pdf?ruleset=ten-pennies&players={','.join(PLAYERS8)}&paper=letter"
    pages = [len(PdfReader(io.BytesIO(client.get(url).data)).pages) for url in (filled_url, blank_url)]
    filled: list[float] = []
    blank: list[float] = []
    for _ in range(31):
        for url, times in ((filled_url, filled), (blank_url, blank)):
            gc.collect()
            start = cpu_with_pdf_worker()  # CPU time: rendering is CPU-bound, and a shared VM's pauses are not its cost
            client.get(url)
            times.append(cpu_with_pdf_worker() - start)
    ratio = statistics.median(f / b for f, b in zip(filled, blank, strict=True))
    return Row(
        f"Scorepad PDF, 8 players × 7 rounds, filled ({pages[0]} page{'s' if pages[0] > 1 else ''}, with the chart)",
        f"{ms(statistics.median(filled))} CPU",
        f"blank sheet for the same table ({pages[1]} page{'s' if pages[1] > 1 else ''}) {ms(statistics.median(blank))}",
        ratio,
        "≤ 1.5× and one page each (median of 31 pairs)",
        ratio <= 1.5 and pages == [1, 1],
    )


def pdf_benchmarks(rows: list[Row]) -> None:
    from pypdf import PdfReader

    from scorekeeper.printing import render_scorepad
    from scorekeeper.printing.render import render_pdf
    from scorekeeper.reads.loading import load_game
    from scorekeeper.store import get_store

    with tempfile.TemporaryDirectory() as folder:
        app = make_app(Path(folder), TESTING=False)
        client = app.test_client()
        gid = finished_game_in_process(client)
        with app.test_request_context():
            loaded = load_game(get_store(), app.extensions["rulesets"], gid)
            html = render_scorepad(loaded.game, get_store().game_day(gid), "letter")
        static = app.static_folder or "static"
        render_pdf(html, static)  # warm up fonts
        client.get(f"/games/{gid}/scorepad.pdf")  # and the worker's
        floor = median_time(lambda: render_pdf(html, static))
        app_time = median_time(lambda: client.get(f"/games/{gid}/scorepad.pdf"))
        rows.append(
            Row(
                "Scorepad PDF, 8 players × 7 rounds",
                ms(app_time),
                f"WeasyPrint on a static copy {ms(floor)}",
                app_time / floor,
                "≤ 1.2×",
                app_time / floor <= 1.2,
            )
        )
        rows.append(filled_against_blank(client, gid))
        rows.append(memory_after_pdfs(client, f"/games/{gid}/scorepad.pdf"))
        night = client.post("/api/nights", json={}).get_json()["id"]
        for g in range(10):
            game = client.post(
                "/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS8[: 4 + g % 5], "night": night}
            ).get_json()["id"]
            caught = {p: "5 " * (j % 3) for j, p in enumerate(PLAYERS8[1 : 4 + g % 5])}
            for _ in range(7):
                client.post(f"/api/games/{game}/rounds", json={"went_out": PLAYERS8[0], "caught": caught})
        data = client.get(f"/nights/{night}/summary.pdf").data
        pages = len(PdfReader(io.BytesIO(data)).pages)
        summary = median_time(lambda: client.get(f"/nights/{night}/summary.pdf"))
        rows.append(
            Row(
                "Night summary PDF, 10 games",
                f"{pages} pages in {ms(summary)}: {pages / summary:.1f} pages/s",
                "—",
                None,
                "reported",
                None,
            )
        )


def cpu_with_pdf_worker() -> float:
    """CPU seconds spent so far by this process and by its PDF worker (the PDFs it rendered)."""
    from scorekeeper.printing.render import WORKER

    return time.process_time() + WORKER.cpu_seconds


def resident_mb() -> float:
    """This process's memory in RAM and its PDF worker's (Linux), MB."""
    from scorekeeper.printing.render import WORKER
    from scorekeeper.printing.render import resident_mb as own

    return own() + WORKER.resident_mb


def memory_after_pdfs(client: Any, url: str, first: int = 10, last: int = 100) -> Row:
    """The server's memory after ``last`` PDFs against after its ``first`` (fonts and WeasyPrint
    loaded): a server that keeps something of every PDF grows with each."""
    for _ in range(first):
        assert client.get(url).status_code == 200
    gc.collect()
    before = resident_mb()
    for _ in range(last - first):
        assert client.get(url).status_code == 200
    gc.collect()
    after = resident_mb()
    return Row(
        f"Memory after {last} scorepad PDFs (the server's resident memory and its PDF worker's)",
        f"{after:.0f} MB",
        f"after {first} PDFs {before:.0f} MB",
        after / before,
        "≤ 1.1×",
        after / before <= 1.1,
    )
