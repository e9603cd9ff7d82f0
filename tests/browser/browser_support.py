"""Shared pieces of the browser tests: where Chromium is, the viewports, screenshots, tap counting."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None and Path("/usr/bin/chromium").exists():
    CHROMIUM = "/usr/bin/chromium"

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}


def shot(page, name: str, full_page: bool = True) -> Path:
    """A screenshot to look at: the whole page, or (full_page=False) just what the screen shows."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


class Taps:
    """Counts the taps a scenario needs, so the README can state it."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    def tap(self, selector: str) -> None:
        self.page.locator(selector).first.tap()
        self.count += 1


def settled(page):
    """Wait until the page has loaded with every stylesheet applied, before measuring anything:
    a measurement taken while the previous page is still showing, or before app.css applies,
    sees unstyled 17 px buttons (a test that failed by chance, one run in two)."""
    page.wait_for_load_state("load")
    page.wait_for_function(
        """() => document.readyState === 'complete' && document.styleSheets.length > 0
                 && [...document.styleSheets].every(sheet => { try { return sheet.cssRules.length > 0 }
                                                              catch (error) { return false } })"""
    )
    return page


def new_game(page, base_url, names, **extra) -> str:
    page.goto(f"{base_url}/games/new")
    for seat, name in enumerate(names):
        page.fill(f"#players-{seat}", name)
    page.select_option("#first_dealer", "0")
    if "pin" in extra:
        page.fill("#pin", extra["pin"])
    page.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return page.url


def enter_round(page, taps: Taps, went_out: str, hands: dict[str, list[str]], before_saving=None) -> None:
    """Tap a round in: who went out, then every card, player by player; no typing."""
    taps.tap("a:has-text('Enter round')")
    page.wait_for_selector(".tap-pad")
    taps.tap(f'.went-out label:has-text("{went_out}")')
    for name, cards in hands.items():
        taps.tap(f'.hand-row[data-player="{name}"] .hand-name')
        for card in cards:
            taps.tap(f'.tap[data-card="{"JKR" if card == "Joker" else card}"]')
    if before_saving:
        before_saving()  # look at the form as it is about to be saved
    taps.tap("button.save")
    page.wait_for_url(re.compile(r"/games/\d+$"))
