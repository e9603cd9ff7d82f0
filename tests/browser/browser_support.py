"""Shared pieces of the browser tests: where Chromium is, the viewports, screenshots, tap counting."""

from __future__ import annotations

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


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
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
