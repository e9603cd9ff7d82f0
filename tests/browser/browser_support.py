"""Shared pieces of the browser tests: where Chromium is, the viewports, screenshots, tap counting."""

from __future__ import annotations

import contextlib
import re
import shutil
import threading
from collections.abc import Iterator
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
# axe-core's latest release from npm (package.json, installed by scripts/setup), injected by the tests
# into the page it checks: never served by the app.
NPM_AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
TABLET = {"width": 820, "height": 1180}


def axe():
    """An axe-core runner for Playwright with npm's axe-core (not the older copy its wrapper carries)."""
    from axe_playwright_python.sync_playwright import Axe

    assert NPM_AXE.exists(), f"{NPM_AXE} is missing: scripts/setup installs it (npm ci)"
    return Axe.from_file(NPM_AXE)


def shot(page, name: str, full_page: bool = True) -> Path:
    """A screenshot to look at: the whole page, or (full_page=False) just what the screen shows."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def buy_button(page, name: str):
    """A player's buy button found as a screen reader names it: the text shown first (the name, the
    buys left …), then "buys the discard"."""
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(name)}\b.*: buys the discard$"))


TAP_LIMIT_MS = 5000


def tap_screen(page, x: float, y: float) -> None:
    """A finger on the screen at (x, y), on whatever is there then, also while one page gives way to
    the next. Playwright's ``page.touchscreen.tap`` waits for Chromium's answer without any limit (it
    passes no timeout), and a CI run hung for an hour on a tap that landed as a page changed; this one
    is the same call with a limit. A tap that gets no answer within TAP_LIMIT_MS did nothing, as a
    finger on a page in between does nothing."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page._sync(page._impl_obj._channel.touchscreenTap(x=x, y=y, timeout=TAP_LIMIT_MS))
    except PlaywrightTimeoutError:
        pass


def centre(locator) -> tuple[float, float]:
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def double_tap(page, locator, gap_ms: int) -> None:
    """Two taps on the same spot of the screen, ``gap_ms`` apart: the second lands on whatever is
    there by then (the page being sent, the next page, or nothing while they change); then waits
    until the page the taps led to has loaded and let go of its guard against a second tap, however
    slow the machine."""
    x, y = centre(locator)
    tap_screen(page, x, y)
    page.wait_for_timeout(gap_ms)
    tap_screen(page, x, y)
    page.wait_for_timeout(300)  # a form the second tap sent has left by now
    come_to_rest(page)


def come_to_rest(page) -> None:
    """The page has loaded, styled, and holds no button against a double tap any more."""
    settled(page)
    page.wait_for_function(
        "() => document.readyState === 'complete' && !document.body.classList.contains('settling')"
        " && !document.body.classList.contains('sending')"
    )


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
    sees unstyled 17 px buttons (a test that failed by chance, one run in two). A link or an asking
    form tapped draws its page in place (issue 45): the page is aria-busy until it is drawn."""
    page.wait_for_load_state("load")
    page.wait_for_function(
        """() => document.readyState === 'complete' && !document.documentElement.hasAttribute('aria-busy')
                 && document.styleSheets.length > 0
                 && [...document.styleSheets].every(sheet => { try { return sheet.cssRules.length > 0 }
                                                              catch (error) { return false } })"""
    )
    return page


@contextlib.contextmanager
def answered(page) -> Iterator[None]:
    """The page's answer to a tap: a buy or an undo draws the game page again in place (issue 45, a
    "page:drawn" event); anything else opens a page. Either way, the answer is there afterwards."""
    page.evaluate(
        "() => { window.drawnAgain = false;"
        " document.addEventListener('page:drawn', () => { window.drawnAgain = true; }, { once: true }); }"
    )
    yield
    page.wait_for_function("() => window.drawnAgain !== false && document.readyState === 'complete'")


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


def serve_until_closed(server: object) -> None:
    """waitress's loop in a thread of the tests: closing the server at teardown may pull its socket
    from under a select() in progress (EBADF), which is the end of serving, not a failure."""
    try:
        server.run()  # type: ignore[attr-defined]
    except OSError:
        pass


@contextlib.contextmanager
def served_on_a_name(folder: Path, browser, host: str) -> Iterator[tuple[object, str, str]]:
    """The app served as on the home network, by a name (listed in its trusted hosts, as `serve
    --network` does), and a Chromium that resolves that name to this machine (--host-resolver-rules):
    an insecure context, as a phone at the table sees it. Yields (that Chromium, the name's address,
    the plain 127.0.0.1 address)."""
    from support import free_port, make_app
    from waitress.server import create_server

    app = make_app(folder, TESTING=False, TRUSTED_HOSTS=[host])
    port = free_port()
    server = create_server(app, host="127.0.0.1", port=port, threads=4)
    threading.Thread(target=serve_until_closed, args=(server,), daemon=True).start()
    args = [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {host} 127.0.0.1"]
    chromium = browser.browser_type.launch(executable_path=CHROMIUM, headless=True, args=args)
    try:
        yield chromium, f"http://{host}:{port}", f"http://127.0.0.1:{port}"
    finally:
        chromium.close()
        server.close()
