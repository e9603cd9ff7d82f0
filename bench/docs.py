"""docs/benchmarks.md's figures, written from BENCHMARKS.json (the last recorded run) so that the
page never restates a figure by hand: ``python -m bench.docs`` writes them, and tests/test_docs.py
fails when the page and the file disagree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "benchmarks.md"
START = "<!-- figures from BENCHMARKS.json: python -m bench.docs -->"
END = "<!-- end of the figures -->"


def figures_block(figures: dict[str, Any]) -> str:
    """The table of the recorded run, as the page shows it."""
    lines = [
        START,
        f"The recorded run took {figures['seconds']:.0f} s.",
        "",
        "| what | measured | floor | ratio | target | met |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in figures["rows"]:
        ratio = "" if row["ratio"] is None else f"{row['ratio']:.2f}×"
        met = {True: "yes", False: "**no**", None: ""}[row["met"]]
        cells = [row["what"], row["measured"], row["floor"], ratio, row["target"], met]
        lines.append("| " + " | ".join(str(cell).replace("|", "\\|") for cell in cells) + " |")
    lines.append(END)
    return "\n".join(lines)


def page_with_figures(page: str, figures: dict[str, Any]) -> str:
    before, _, rest = page.partition(START)
    _, _, after = rest.partition(END)
    return before + figures_block(figures) + after


def main() -> None:
    figures = json.loads((ROOT / "BENCHMARKS.json").read_text(encoding="utf-8"))
    PAGE.write_text(page_with_figures(PAGE.read_text(encoding="utf-8"), figures), encoding="utf-8")
    print(f"written: {PAGE}")


if __name__ == "__main__":
    main()
