"""Glyphs drawn everywhere (issue 60): "the app serves no font, so the suits on phones are drawn by whatever
font the phone picks". The app serves DejaVu Sans cut to what it writes (scripts/served_font.py); every
character its templates, scripts, styles, rules and messages hold is in that font, regular and bold; the
pages and the PDFs name it first."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from support import ROOT, script

served_font = script("served_font")
FACES = list(served_font.FACES)


def characters_of(face: str) -> set[str]:
    font = TTFont(io.BytesIO((ROOT / served_font.FONT_FOLDER / face).read_bytes()))
    return {chr(code) for code in font.getBestCmap()}


@pytest.mark.parametrize("face", FACES)
def test_every_character_the_app_writes_is_in_the_served_font(face):
    missing = sorted(served_font.characters_written() - characters_of(face))
    assert missing == [], f"run scripts/served_font.py: {[(char, f'U+{ord(char):04X}') for char in missing]}"


def test_the_suits_and_the_pads_keys_are_in_it():
    assert set("♠♥♦♣⌫▸—·≤×−") <= characters_of(FACES[0])


@pytest.mark.parametrize("face", FACES)
def test_the_font_is_served_by_the_app_itself(client, face):
    answer = client.get(f"/static/fonts/{face}")
    assert answer.status_code == 200 and answer.data[:4] == b"wOF2"
    assert (ROOT / served_font.FONT_FOLDER / "LICENSE-DejaVu.txt").exists()  # DejaVu's licence travels with it


@pytest.mark.parametrize("stylesheet", ["app.css", "print.css"])
def test_pages_and_pdfs_name_the_served_font_first(stylesheet):
    css = Path(ROOT / "static" / "css" / stylesheet).read_text(encoding="utf-8")
    faces = re.findall(r'@font-face \{ font-family: "Scorekeeper Sans"; src: url\("\.\./fonts/([\w-]+\.woff2)"\)', css)
    assert sorted(faces) == sorted(FACES)
    assert re.search(r'font-family: "Scorekeeper Sans", "DejaVu Sans", ', css)
