"""Measure the app against its floors, in one run, and write the table (Markdown) and the figures (JSON).

Every figure is a ratio to a floor measured in the same run on the same machine (a trivial route
of the same server, WeasyPrint on a static copy of the same HTML, a brute-force search over a
smaller hand, the 1st game of a night, the same pages with 10 games), so the figures mean the same on
a slower or a busier machine. The run exits 1 when a target is missed.

    python -m bench            # writes test-artifacts/bench/BENCHMARKS.md and .json (not tracked)
    python -m bench --record   # writes BENCHMARKS.md and BENCHMARKS.json at the top of the repository
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import asdict

from .common import NIGHT_GAMES, ROOT, Row
from .engine import adversarial_benchmarks, engine_benchmarks, go_down_benchmarks, results_card_benchmarks
from .floors import page_against_its_template, save_against_its_rows
from .follow import follow_benchmarks, pages_while_pdfs_render, start_benchmarks
from .growth import growth_benchmarks
from .house_rules import house_go_down_benchmarks, pages_while_eight_ask
from .pdfs import pdf_benchmarks
from .server import night_benchmarks, server_benchmarks
from .taps import tap_benchmarks
from .writes import night_and_fragment_costs


def write_report(rows: list[Row], extra: dict[str, float], seconds: float) -> str:
    lines = [
        "# Benchmarks",
        "",
        f"Written by `scripts/bench --record` (`python -m bench --record`) on {time.strftime('%Y-%m-%d')}, "
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"the whole run took {seconds:.0f} s. Medians over repeated runs; each figure is a ratio to a "
        "floor measured in the same run. The figures are also in BENCHMARKS.json.",
        "",
        "| what | measured | floor | ratio | target | met |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        ratio = "—" if r.ratio is None else f"{r.ratio:.2f}×"
        met = "—" if r.met is None else ("yes" if r.met else "**no**")
        lines.append(f"| {r.what} | {r.measured} | {r.floor} | {ratio} | {r.target} | {met} |")
    saves = extra["saves_per_second"]
    lines += [
        "",
        "The server figures are taken through waitress on 127.0.0.1 while a second process reads the game page,",
        "the live scorepad and the trivial route every few milliseconds (bounded: 120 s, 20,000 requests).",
        f"The night rows compare the 1st and the {NIGHT_GAMES}th finished game of one night, requests interleaved.",
        "",
        "## Capacity",
        "",
        f"One instance saved an 8-player round in a median of {1000 / saves:.1f} ms under that load, so it can",
        f"record about {saves:,.0f} rounds a second one after another. A table records a round every few",
        f"minutes — say one every 3 minutes — so the writes alone would allow ~{saves * 180:,.0f} tables at once;",
        "reads (live views polling every 0.75 s, under a ms each) run in parallel on waitress's threads and on",
        "SQLite's WAL readers. In practice an instance serves one household or club on a home network, far",
        "below either limit. SQLite takes one writer at a time: a deployment serving many hundreds of tables",
        "writing at the same moment, or several app servers on different machines, would want a",
        "client–server database (PostgreSQL) instead.",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", action="store_true", help="write BENCHMARKS.md/.json at the top of the repository")
    args = parser.parse_args()
    started = time.perf_counter()
    rows: list[Row] = []
    print("server …", flush=True)
    extra = server_benchmarks(rows)
    page_against_its_template(rows)
    save_against_its_rows(rows)
    print("night …", flush=True)
    night_benchmarks(rows)
    print("pdf …", flush=True)
    pdf_benchmarks(rows)
    results_card_benchmarks(rows)
    print("engine …", flush=True)
    engine_benchmarks(rows)
    adversarial_benchmarks(rows)
    go_down_benchmarks(rows)
    pages_while_eight_ask(rows, house_go_down_benchmarks(rows))
    print("growth …", flush=True)
    growth_benchmarks(rows)
    night_and_fragment_costs(rows)
    print("following …", flush=True)
    follow_benchmarks(rows)
    print("taps …", flush=True)
    tap_benchmarks(rows)
    start_benchmarks(rows)
    pages_while_pdfs_render(rows)
    seconds = time.perf_counter() - started
    report = write_report(rows, extra, seconds)
    folder = ROOT if args.record else ROOT / "test-artifacts" / "bench"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "BENCHMARKS.md").write_text(report, encoding="utf-8")
    figures = {
        "seconds": round(seconds, 1),
        "day": time.strftime("%Y-%m-%d"),
        **extra,
        "rows": [asdict(row) for row in rows],
    }
    (folder / "BENCHMARKS.json").write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(report)
    missed = [row.what for row in rows if row.met is False]
    for what in missed:
        print(f"target missed: {what}", file=sys.stderr)
    print(f"written to {folder / 'BENCHMARKS.md'} and BENCHMARKS.json")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
