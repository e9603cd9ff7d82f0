"""WebKit, the engine of every browser on an iPhone (issue 60): Debian's WebKitGTK driven through its
WebDriver (`WebKitWebDriver`, package webkit2gtk-driver) by Selenium, in MiniBrowser windows on a
virtual screen (Xvfb). Playwright's own WebKit is a download this machine's closed network refuses.

MiniBrowser's window is never narrower than 447 px, so the "phone" here is 447 CSS px wide (an iPhone
Pro Max is 430): the narrowest WebKit this driver draws."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import threading
from pathlib import Path

from browser_support import ARTIFACTS

WEBDRIVER = shutil.which("WebKitWebDriver")
MINIBROWSER = next(iter(sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser"))), None)
XVFB = shutil.which("Xvfb")
NEEDED = {"WebKitWebDriver (webkit2gtk-driver)": WEBDRIVER, "MiniBrowser": MINIBROWSER, "Xvfb": XVFB}
MISSING = [what for what, found in NEEDED.items() if not found]
PHONE_WIDTH = 447  # MiniBrowser's narrowest window
PHONE_HEIGHT = 844
WAIT_S = 10  # the longest any state a page shows is waited for


class VirtualScreen:
    """An X display of its own (Xvfb picks a free number and writes it to a pipe). ``-noreset``: an X
    server by default resets when its last window closes, and on a busy machine a reset has left the
    display refusing every later window ("cannot open display")."""

    def __init__(self) -> None:
        assert XVFB, "Xvfb is missing: apt-get install xvfb (scripts/setup does)"
        read_end, write_end = os.pipe()
        self.process = subprocess.Popen(
            [XVFB, "-displayfd", str(write_end), "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-noreset"],
            pass_fds=[write_end],
            stderr=subprocess.DEVNULL,
        )
        os.close(write_end)
        with os.fdopen(read_end) as announced:
            self.display = f":{announced.readline().strip()}"

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


SESSION_START_S = 30  # a new MiniBrowser answers within a second or two, also on a busy machine
SESSION_ATTEMPTS = 3


def started_session():
    """A WebDriver session in a new MiniBrowser window on a screen of its own, and that screen. On a busy
    machine one start in a few hangs with nothing said (WebKitWebDriver never hears from its MiniBrowser):
    such a start is given up after SESSION_START_S, its processes and its screen ended, and both begun
    again."""
    for _ in range(SESSION_ATTEMPTS):
        screen = VirtualScreen()
        session = session_within(screen.display, SESSION_START_S)
        if session is not None:
            return session, screen
        screen.close()
    raise AssertionError(f"WebKit's MiniBrowser did not start in {SESSION_ATTEMPTS} tries of {SESSION_START_S} s")


def session_within(display: str, seconds: float):
    """One start of a session, or None (its processes ended) when it has not started within ``seconds``."""
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    options = Options()
    options.binary_location = str(MINIBROWSER)
    options.add_argument("--automation")
    service = Service(
        executable_path=str(WEBDRIVER), env={**os.environ, "DISPLAY": display}, log_output=subprocess.DEVNULL
    )
    started: list = []
    opening = threading.Thread(
        target=lambda: started.append(webdriver.WebKitGTK(options=options, service=service)), daemon=True
    )
    opening.start()
    opening.join(seconds)
    if started:
        return started[0]
    if service.process is not None:  # the hung start: its MiniBrowser, then the driver
        subprocess.run(["pkill", "-P", str(service.process.pid)], check=False)
    service.stop()
    return None


class Phone:
    """One WebKit window at phone width, with the few things a test of a night does: open a page, tap,
    choose, read, wait for what the page shows (never for a time), and take a screenshot."""

    def __init__(self) -> None:
        self.driver, self.screen = started_session()
        self.driver.set_window_size(PHONE_WIDTH, PHONE_HEIGHT)

    def quit(self) -> None:
        self.driver.quit()
        self.screen.close()

    def go(self, url: str) -> Phone:
        self.driver.get(url)
        return self.settled()

    def settled(self) -> Phone:
        """Loaded, every stylesheet applied, not busy drawing a page in place (as browser_support.settled)."""
        self.wait(
            "document.readyState === 'complete' && !document.documentElement.hasAttribute('aria-busy')"
            " && document.styleSheets.length > 0"
        )
        return self

    def at_rest(self) -> Phone:
        """No button held against a double tap (app.js holds them a moment after a page is drawn)."""
        self.wait("!document.body.classList.contains('settling') && !document.body.classList.contains('sending')")
        return self

    def wait(self, condition: str, *args: object, timeout: float = WAIT_S) -> object:
        """Until the JavaScript expression ``condition`` (arguments as ``arguments[0]``…) is true."""
        from selenium.webdriver.support.ui import WebDriverWait

        script = f"return ({condition});"
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(
                lambda driver: driver.execute_script(script, *args)
            )
        except Exception as error:
            raise AssertionError(f"WebKit never showed: {condition} {args}\n{self.text('main')[:800]}") from error

    def wait_text(self, css: str, words: str, timeout: float = WAIT_S) -> None:
        """Until the element ``css`` shows ``words`` in its text."""
        self.wait(
            "(document.querySelector(arguments[0])?.textContent || '').replace(/\\s+/g, ' ').includes(arguments[1])",
            css,
            words,
            timeout=timeout,
        )

    def js(self, script: str, *args: object) -> object:
        return self.driver.execute_script(script, *args)

    def find(self, css: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, css)

    def tap(self, css: str) -> None:
        element = self.find(css)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def tap_button(self, words: str) -> None:
        """The button whose shown text begins with ``words``, as a person finds it."""
        from selenium.webdriver.common.by import By

        self.at_rest()
        buttons = self.driver.find_elements(By.CSS_SELECTOR, "button")
        shown = [" ".join(str(self.js("return arguments[0].innerText", b)).split()) for b in buttons]
        matches = [b for b, text in zip(buttons, shown, strict=True) if text.startswith(words)]
        assert matches, f"no button shows {words!r}: {shown}"
        button = matches[0]
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()

    def choose(self, css: str, value: str) -> None:
        from selenium.webdriver.support.ui import Select

        Select(self.find(css)).select_by_value(value)

    def text(self, css: str) -> str:
        return str(self.js("return document.querySelector(arguments[0])?.innerText || ''", css))

    def shot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"webkit-{name}.png"
        self.driver.save_screenshot(str(path))
        return path
