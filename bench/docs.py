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


README = ROOT / "README.md"
README_ROWS = ("Tap → painted", "The table view", "A player's phone", "Import of")  # what a table feels


def readme_block(figures: dict[str, Any]) -> str:
    """The figures a player feels, for the README: each as the recorded run measured it."""
    lines = [START, f"Measured by `scripts/bench --record` on {figures['day']}:", ""]
    for row in figures["rows"]:
        if row["what"].startswith(README_ROWS):
            met = {True: "met", False: "**not met**", None: "reported"}[row["met"]]
            lines.append(f"- {row['what']}: {row['measured']} (target {row['target']}: {met})")
    lines.append(END)
    return "\n".join(lines)


def page_with_figures(page: str, block: str) -> str:
    before, _, rest = page.partition(START)
    _, _, after = rest.partition(END)
    return before + block + after


def main() -> None:
    figures = json.loads((ROOT / "BENCHMARKS.json").read_text(encoding="utf-8"))
    for path, block in ((PAGE, figures_block(figures)), (README, readme_block(figures))):
        path.write_text(page_with_figures(path.read_text(encoding="utf-8"), block), encoding="utf-8")
        print(f"written: {path}")


if __name__ == "__main__":
    main()
