"""What every part of the benchmark shares: a row of the table, and how a figure is written."""

from __future__ import annotations

import contextlib
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support import PLAYERS8, eight_player_round, free_port, start_server


@dataclass
class Row:
    what: str
    measured: str
    floor: str
    ratio: float | None
    target: str
    met: bool | None


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def cpu_time(fn: Callable[[], Any]) -> float:
    """CPU time of one call, in this process (a busy machine's other work is not counted)."""
    start = time.process_time()
    fn()
    return time.process_time() - start


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


@contextlib.contextmanager
def served_to_chromium() -> Iterator[tuple[int, Any] | None]:
    """A fresh instance served by waitress on a port, and Chromium to open it: (port, browser), or
    None on a machine without Chromium."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        yield None
        return
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        port = free_port()
        server = start_server(Path(folder), port)
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield port, browser
        finally:
            browser.close()
            server.kill()
            server.wait()


def finished_game_in_process(client: Any) -> int:
    """A finished 8-player game of Ten Pennies, through a Flask test client (7 rounds)."""
    gid = int(client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS8}).get_json()["id"])
    for i in range(7):
        client.post(f"/api/games/{gid}/rounds", json=eight_player_round(i))
    return gid


ROOT = Path(__file__).resolve().parent.parent
REPEATS = 5  # medians over repeated runs
NIGHT_GAMES = 20


def median_time(fn: Callable[[], object], repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
