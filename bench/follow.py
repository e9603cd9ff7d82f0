"""The table follows a save (issue 45), the first page, pages while PDFs render."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.support import (
    HttpClient,
    free_port,
    start_server,
)

from .common import Row, ms, percentile, served_to_chromium
from .server import finished_game, live_token, timed

FOLLOW_SAMPLES = 11  # the rounds of a game of Ten Card Rummy


def follow_benchmarks(rows: list[Row]) -> None:
    """A round saved by the scorekeeper, seen on the table view and on a player's phone: from the
    save's answer to the moment each page has put the new scores in (its "live:updated"), in Chromium
    with its CPU slowed 4× (a mid-range phone, as Lighthouse counts one), the saves at random moments
    of the pages' polling."""
    with served_to_chromium() as served:
        if served is None:
            rows.append(
                Row(
                    "The table view and a player's phone following a save",
                    "not measured: no Chromium",
                    "—",
                    None,
                    "—",
                    None,
                )
            )
            return
        port, browser = served
        client = HttpClient(port)
        players = ["Ann", "Bob", "Cy", "Di"]
        gid = int(client.json("POST", "/api/games", {"ruleset": "ten-card-rummy", "players": players})["id"])
        pages = {
            "the table view": f"http://127.0.0.1:{port}/games/{gid}/table",
            "a player's phone (live view)": f"http://127.0.0.1:{port}/live/{live_token(client, gid)}",
        }
        opened = {what: slowed_page(browser, url) for what, url in pages.items()}
        behind: dict[str, list[float]] = {what: [] for what in pages}
        for _ in range(FOLLOW_SAMPLES):
            time.sleep(random.uniform(0.2, 1.0))  # any moment of the pages' polling
            client.json(
                "POST", f"/api/games/{gid}/rounds", {"went_out": "Ann", "caught": {"Bob": "K", "Cy": "3", "Di": ""}}
            )
            saved = time.time() * 1000
            for what, page in opened.items():
                page.wait_for_function("() => window.updatedAt > 0", timeout=10_000)
                behind[what].append((page.evaluate("window.updatedAt") - saved) / 1000)
                page.evaluate("window.updatedAt = 0")
    for what, delays in behind.items():
        median, p90 = statistics.median(delays), percentile(delays, 0.9)
        rows.append(
            Row(
                f"{what[0].upper()}{what[1:]} showing a round saved elsewhere (Chromium, CPU 4× slower)",
                f"median {median * 1000:.0f} ms, p90 {p90 * 1000:.0f} ms over {len(delays)} saves",
                "the save's answer",
                None,
                "median ≤ 1 s, p90 ≤ 1.5 s",
                median <= 1.0 and p90 <= 1.5,
            )
        )


def start_benchmarks(rows: list[Row]) -> None:
    """From starting ``scorekeeper serve`` to its first answer (WeasyPrint is loaded by the PDF worker
    with the first PDF)."""
    starts = []
    for _ in range(5):
        with tempfile.TemporaryDirectory() as folder:
            port = free_port()
            began = time.perf_counter()
            server = start_server(Path(folder), port)
            starts.append(time.perf_counter() - began)
            server.kill()
            server.wait()
    rows.append(
        Row(
            "From `scorekeeper serve` to its first answer (WeasyPrint loaded by the PDF worker with the first PDF)",
            f"median {statistics.median(starts) * 1000:.0f} ms of 5 starts",
            "—",
            None,
            "reported",
            None,
        )
    )


def pages_while_pdfs_render(rows: list[Row], seconds: float = 8.0) -> None:
    """The trivial route and the game page asked for while four PDFs are asked for at once, again and
    again (a season's PDFs and scorepads printed together): they render in the PDF worker, one at a
    time."""
    import threading

    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(Path(folder), port)
        try:
            client = HttpClient(port)
            gid = finished_game(client)
            deadline = time.time() + seconds
            printed = [0]
            failed: list[int] = []

            def print_again() -> None:
                printer = HttpClient(port, timeout=120)
                while time.time() < deadline:
                    status, pdf = printer.call("GET", f"/games/{gid}/scorepad.pdf")
                    if status != 200 or not pdf.startswith(b"%PDF"):  # a failed PDF holds nobody: no figure
                        failed.append(status)
                        return
                    printed[0] += 1

            printers = [threading.Thread(target=print_again) for _ in range(4)]
            for printer in printers:
                printer.start()
            time.sleep(0.5)
            waits: dict[str, list[float]] = {"/healthz": [], f"/games/{gid}": []}
            while time.time() < deadline - 0.5:
                for path, times in waits.items():
                    times.append(timed(client, "GET", path))
                time.sleep(0.05)
            for printer in printers:
                printer.join()
        finally:
            server.kill()
            server.wait()
    if failed:
        raise RuntimeError(f"the PDFs asked for while pages were timed failed: {failed}")
    for path, times in waits.items():
        what = "the trivial route" if path == "/healthz" else "the game page (8 players)"
        p90 = percentile(times, 0.9)
        rows.append(
            Row(
                f"While four PDFs are asked for at once, again and again: {what}",
                f"p50 {ms(statistics.median(times))}, p90 {ms(p90)} ({printed[0]} PDFs meanwhile)",
                "—",
                None,
                "p90 ≤ 100 ms",
                p90 <= 0.1,
            )
        )


def slowed_page(browser: Any, url: str) -> Any:
    """A phone-sized page at ``url`` on a CPU slowed 4×, noting when it last put new scores in."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    page.add_init_script("document.addEventListener('live:updated', () => { window.updatedAt = Date.now(); }, true);")
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
    page.goto(url)
    page.wait_for_load_state("load")
    return page
