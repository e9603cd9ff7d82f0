"""Real-browser tests: Playwright for Python driving Debian's Chromium (no browser download), and
Selenium driving WebKitGTK (webkit_support.py).

The app is served by waitress on 127.0.0.1 on a free port, one instance per test module. Where no
Chromium can be found these tests are skipped, saying why; scripts/test installs it (scripts/setup).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest
from browser_support import CHROMIUM, CHROMIUM_ARGS, PHONE, serving
from support import free_port, make_app

playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
if CHROMIUM is None:
    pytest.skip(
        "no Chromium found: install Debian's chromium package to run the browser tests", allow_module_level=True
    )


@pytest.fixture(scope="module")
def base_url(tmp_path_factory) -> Iterator[str]:
    """A fresh instance per test module, so one module's nights, PINs and players never meet another's.
    SCOREKEEPER_TEST_LATENCY=0.3 answers every request 0.3 s late, like a slow machine or Wi-Fi: the
    tests wait for pages, never for fixed times, and pass that way too."""
    app = make_app(tmp_path_factory.mktemp("browser-instance"), TESTING=False)
    latency = float(os.environ.get("SCOREKEEPER_TEST_LATENCY", "0"))
    if latency:
        app.before_request(lambda: time.sleep(latency))
    port = free_port()
    with serving(app, port):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="session")
def browser():
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    yield page
    context.close()
