"""Import and export that scale (issue 45): a house's nineteen years (10,000 games) imported in a
minute on two cores, and exported a game at a time, its memory the same as for ten games."""

from __future__ import annotations

import gc
import json
import tempfile
import time
import tracemalloc
from pathlib import Path

from scorekeeper.commands.derived import import_dump
from scorekeeper.store import Store, exchange
from tests.support import make_app

from .common import Row
from .history import build_history

IMPORT_TARGET_SECONDS = 60


GARBAGE_EVERY = 500  # parts written between two collections of the garbage the JSON encoder leaves


def export_peak(path: str, into: Path) -> float:
    """The most memory (Python's allocations, MB) the export of a database held while writing it.
    json's indenting encoder leaves reference cycles that only a full collection frees, and when
    one runs depends on the whole heap, not on the export: collected every GARBAGE_EVERY games, the
    figure is what the export holds, not how long the garbage waited."""
    store = Store(path)
    tracemalloc.start()
    try:
        with into.open("w", encoding="utf-8") as handle:
            for number, part in enumerate(exchange.export_text(store)):
                handle.write(part)
                if number % GARBAGE_EVERY == 0:
                    gc.collect()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()
        store.close()


def import_seconds(export: Path) -> tuple[float, float]:
    """Wall and CPU time of ``flask import`` of an export into an empty database: read, checked, replayed."""
    with tempfile.TemporaryDirectory() as folder:
        app = make_app(Path(folder), TESTING=False)
        store = Store(app.config["DATABASE"])
        wall, cpu = time.perf_counter(), time.process_time()
        with app.app_context():
            import_dump(store, app.extensions["rulesets"], json.loads(export.read_text(encoding="utf-8")))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        store.close()
    return wall, cpu


def exchange_benchmarks(rows: list[Row], big: str, games: int) -> None:
    """``big``: a database of ``games`` finished games (the growth benchmark's); the floor of the
    export's memory is the export of a tenth of them."""
    with tempfile.TemporaryDirectory() as folder:
        small = f"{folder}/history.sqlite"
        build_history(small, games // 10)
        exports = {size: Path(folder) / f"export-{size}.json" for size in (games, games // 10)}
        peaks = {games: export_peak(big, exports[games]), games // 10: export_peak(small, exports[games // 10])}
        ratio = peaks[games] / peaks[games // 10]
        rows.append(
            Row(
                f"Export of {games:,} games ({exports[games].stat().st_size / 1e6:.0f} MB of JSON): memory held",
                f"{peaks[games]:.2f} MB",
                f"export of {games // 10:,} games {peaks[games // 10]:.2f} MB",
                ratio,
                "≤ 1.5×",
                ratio <= 1.5,
            )
        )
        big_export = exports[games]
        wall, cpu = import_seconds(big_export)
        rows.append(
            Row(
                f"Import of {games:,} games (a house's nineteen years): wall time",
                f"{wall:.1f} s (CPU {cpu:.1f} s)",
                f"{IMPORT_TARGET_SECONDS} s",
                wall / IMPORT_TARGET_SECONDS,
                f"≤ {IMPORT_TARGET_SECONDS} s",
                wall <= IMPORT_TARGET_SECONDS,
            )
        )
