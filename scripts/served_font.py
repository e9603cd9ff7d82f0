"""Writes static/fonts/: DejaVu Sans (regular and bold) cut down to the characters Scorekeeper writes, as
WOFF2, with DejaVu's licence beside them (issue 60). The app serves them, so a phone draws the suits, the
arrows and the card pad's keys with the font the tests checked, not whatever font it picks; the PDFs use
them too. Run it again (from the checkout, with the .venv's Python) when a page gains a character:
tests/test_served_font.py says which one is missing.

Usage: .venv/bin/python scripts/served_font.py [DEJAVU_FOLDER]   (default: /usr/share/fonts/truetype/dejavu)
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from fontTools import subset

ROOT = Path(__file__).resolve().parent.parent
FONT_FOLDER = "static/fonts"
FACES = {"scorekeeper-sans.woff2": "DejaVuSans.ttf", "scorekeeper-sans-bold.woff2": "DejaVuSans-Bold.ttf"}
# Where the characters a page, a script or a PDF may write come from (a user's own words aside).
WRITTEN = (
    "templates/**/*.html",
    "static/js/**/*.js",
    "static/css/**/*.css",
    "scorekeeper/**/*.py",
    "scorekeeper/**/*.toml",
    "scorekeeper/**/*.md",
    "scorekeeper/**/*.html",
)

# Beyond what the app writes: every letter a name in a Western European language (Spanish and Chilean
# names included) may hold, so that a player's name is drawn in the same font as the rest of the line.
NAME_LETTERS = [chr(code) for code in range(0x00A0, 0x0180)]
LICENCE = Path("/usr/share/doc/fonts-dejavu-core/copyright")


# Characters the browsers and WeasyPrint draw themselves: the markers of a list, level by level.
DRAWN_BY_CSS = {"\u2022", "\u25e6", "\u25aa"}
# Characters the sources name without writing them: full-width letters that rules/names.py folds away
# (a look-alike name is refused; the app never writes them itself).
NAMED_ONLY = {"\uff21", "\uff2e"}


def characters_written(root: Path = ROOT) -> set[str]:
    """Every character of the files the app writes its words from: printable ASCII and all the others
    they hold (comments included: a character there may move into a string tomorrow)."""
    found = {chr(code) for code in range(0x20, 0x7F)} | DRAWN_BY_CSS
    for pattern in WRITTEN:
        for path in root.glob(pattern):
            found |= {char for char in path.read_text(encoding="utf-8") if char.isprintable() and ord(char) > 0x7E}
    return found - NAMED_ONLY


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/usr/share/fonts/truetype/dejavu")
    folder = ROOT / FONT_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    wanted = sorted(characters_written() | set(NAME_LETTERS))
    for served, dejavu in FACES.items():
        options = subset.Options()
        options.flavor = "woff2"
        options.layout_features = ["*"]
        options.name_IDs = ["*"]  # the font's own names and licence travel with it
        options.notdef_outline = True
        font = subset.load_font(str(source / dejavu), options)
        cutter = subset.Subsetter(options)
        cutter.populate(unicodes=[ord(char) for char in wanted])
        cutter.subset(font)
        subset.save_font(font, str(folder / served), options)
        print(f"{FONT_FOLDER}/{served}: {len(wanted)} characters, {(folder / served).stat().st_size:,} bytes")
    if LICENCE.exists():
        shutil.copyfile(LICENCE, folder / "LICENSE-DejaVu.txt")


if __name__ == "__main__":
    main()
