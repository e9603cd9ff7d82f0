"""Shared pieces of the browser tests: where Chromium is, the viewports, screenshots, tap counting."""

from __future__ import annotations

import contextlib
import re
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

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


# The page holds its buttons for 900 ms after a tap (static/js/taps.js, SETTLE_MS): two taps closer
# than this, with room for the browser's own delays, are one double tap; further apart they may be
# two taps meant (the app records both, by design).
DOUBLE_TAP_MS = 800


def double_tap(page, locator, gap_ms: int) -> float:
    """Two taps on the same spot of the screen, ``gap_ms`` apart: the second lands on whatever is
    there by then (the page being sent, the next page, or nothing while they change); then waits
    until the page the taps led to has loaded and let go of its guard against a second tap, however
    slow the machine. Returns the most the two taps can have been apart, in ms: on a machine under
    load the second can come well after ``gap_ms`` (compare with DOUBLE_TAP_MS)."""
    x, y = centre(locator)
    started = time.monotonic()
    tap_screen(page, x, y)
    page.wait_for_timeout(gap_ms)
    tap_screen(page, x, y)
    apart = (time.monotonic() - started) * 1000
    page.wait_for_timeout(300)  # a form the second tap sent has left by now
    come_to_rest(page)
    return apart


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
    """waitress's loop in a thread of the tests; it ends when ``serving`` has had it close every socket
    of its map (from inside the loop)."""
    try:
        server.run()  # type: ignore[attr-defined]
    except OSError:
        pass  # a socket closed under a select() in progress: the end of serving, not a failure


@contextlib.contextmanager
def serving(app: Flask, port: int) -> Iterator[Any]:
    """``app`` served by waitress on 127.0.0.1:port in a thread of the tests, until the block ends.

    Stopped cleanly, never by ``server.close()`` from this thread: that closed the loop's wake-up pipe
    while its workers still answered, and a worker finishing a request then wrote its wake-up byte
    to whatever file had taken the pipe's number since — under load, the next test's new database
    ("file is not a database", 1 run in 4 of scripts/test-busy). So: the workers finish first (none
    wakes the loop after), then the loop closes its own sockets and ends, and the thread is joined."""
    from waitress.server import create_server

    server: Any = create_server(app, host="127.0.0.1", port=port, threads=4)  # one socket: a TcpWSGIServer
    thread = threading.Thread(target=serve_until_closed, args=(server,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.task_dispatcher.shutdown()
        try:
            server.trigger.pull_trigger(lambda: server.asyncore.close_all(server._map))
        except OSError:
            pass  # the wake-up pipe is closed already: the loop has ended and closed its sockets with it
        thread.join(timeout=30)


@contextlib.contextmanager
def served_on_a_name(folder: Path, browser, host: str) -> Iterator[tuple[object, str, str]]:
    """The app served as on the home network, by a name (listed in its trusted hosts, as `serve
    --network` does), and a Chromium that resolves that name to this machine (--host-resolver-rules):
    an insecure context, as a phone at the table sees it. Yields (that Chromium, the name's address,
    the plain 127.0.0.1 address)."""
    from support import free_port, make_app

    app = make_app(folder, TESTING=False, TRUSTED_HOSTS=[host])
    port = free_port()
    args = [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {host} 127.0.0.1"]
    with serving(app, port):
        chromium = browser.browser_type.launch(executable_path=CHROMIUM, headless=True, args=args)
        try:
            yield chromium, f"http://{host}:{port}", f"http://127.0.0.1:{port}"
        finally:
            chromium.close()
