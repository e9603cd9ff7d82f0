"""Four-colour suits every player can tell apart (issue 44): each pair of suit colours, as seen and as a
person with protanopia, deuteranopia or tritanopia sees it (Machado, Oliveira and Fernandes 2009, full
severity), differs by at least ΔE 15 (CIELAB 1976; 2.3 is a just-noticeable difference); each reads on
its background at 4.5:1 or more. Issue 60: "♥ ♦ ♣ have the same lightness" — so each pair differs in
lightness too (ΔL* 8 or more), for an eye that sees no hue at all and a phone's screen dimmed or in grey,
in every theme, High contrast included. The colours are read from the stylesheet the app serves."""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[1] / "static" / "css" / "app.css").read_text()
MACHADO = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
}
LEAST_DIFFERENCE = 15.0
LEAST_CONTRAST = 4.5
LEAST_LIGHTNESS_STEP = 8.0


def rgb(colour: str) -> list[float]:
    return [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]


def linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def gamma(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def seen_by(colour: list[float], kind: str | None) -> list[float]:
    if kind is None:
        return colour
    flat = [linear(c) for c in colour]
    return [gamma(sum(row[j] * flat[j] for j in range(3))) for row in MACHADO[kind]]


def lab(colour: list[float]) -> tuple[float, float, float]:
    r, g, b = (linear(c) for c in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def contrast(a: str, b: str) -> float:
    def luminance(colour: str) -> float:
        r, g, bl = (linear(c) for c in rgb(colour))
        return 0.2126 * r + 0.7152 * g + 0.0722 * bl

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def four_colours(selector: str) -> dict[str, str]:
    block = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", CSS)
    assert block, selector
    return dict(re.findall(r"--suit-([shdc]):\s*(#[0-9a-f]{6})", block.group(1)))


CASES = [
    (':root[data-suits="four"]', "#f7f5ef"),  # light: the page
    (':root[data-suits="four"][data-theme="dark"]', "#121412"),
    (':root[data-theme="contrast"][data-suits="four"]', "#000000"),
]
THEMES = ["light", "dark", "High contrast"]


@pytest.mark.parametrize("selector, background", CASES, ids=THEMES)
def test_every_pair_of_suits_stays_apart_for_every_eye(selector, background):
    suits = four_colours(selector)
    assert set(suits) == {"s", "h", "d", "c"}
    for kind in (None, *MACHADO):
        for (one, a), (other, b) in itertools.combinations(suits.items(), 2):
            difference = math.dist(lab(seen_by(rgb(a), kind)), lab(seen_by(rgb(b), kind)))
            assert difference >= LEAST_DIFFERENCE, (kind, one, other, round(difference, 1))
    for suit, colour in suits.items():
        assert contrast(colour, background) >= LEAST_CONTRAST, (suit, round(contrast(colour, background), 2))


@pytest.mark.parametrize("selector, background", CASES, ids=THEMES)
def test_every_pair_of_suits_differs_in_lightness_too(selector, background):
    lightness = {suit: lab(rgb(colour))[0] for suit, colour in four_colours(selector).items()}
    for (one, a), (other, b) in itertools.combinations(lightness.items(), 2):
        assert abs(a - b) >= LEAST_LIGHTNESS_STEP, (one, other, round(a, 1), round(b, 1))


def test_the_phone_set_to_dark_shows_the_dark_themes_suits():
    media = re.search(r'@media \(prefers-color-scheme: dark\) \{\s*(:root\[data-suits="four"\][^{]*\{[^}]*\})', CSS)
    assert media, "the four-colour suits of a phone set to dark"
    assert four_colours(':root[data-suits="four"]:not([data-theme="light"])') == four_colours(CASES[1][0])
