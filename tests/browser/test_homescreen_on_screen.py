"""On the home screen, in Chromium (issue 44): the app is installable over localhost with nothing
missing, and over the home network's plain http the one thing DevTools finds missing is a secure
origin (an insecure context cannot install; it can still be added to the home screen). The icon a
phone keeps, looked at."""

from __future__ import annotations

import pytest
from browser_support import CHROMIUM, CHROMIUM_ARGS, served_on_a_name, settled, shot

pytestmark = pytest.mark.browser

HOST = "scorekeeper-home.test"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def both_ways(tmp_path_factory, browser):
    with served_on_a_name(tmp_path_factory.mktemp("home-screen"), browser, HOST) as served:
        yield served


def installability_errors(page) -> list[str]:
    """What DevTools' Application panel lists (Page.getInstallabilityErrors), once the manifest and
    its icons were fetched."""
    page.wait_for_function("() => document.readyState === 'complete'")
    session = page.context.new_cdp_session(page)
    for _ in range(20):  # the manifest is fetched after the page: ask until the answer settles
        errors = [e["errorId"] for e in session.send("Page.getInstallabilityErrors")["installabilityErrors"]]
        manifest = session.send("Page.getAppManifest")
        if manifest.get("url") and "manifest-empty" not in errors:
            return errors
        page.wait_for_timeout(250)
    return errors


def test_installable_over_localhost_and_only_the_origin_wanting_over_the_home_network(both_ways, browser, tmp_path):
    _, lan, local = both_ways
    # A profile of its own: a browser context is an incognito window, where nothing installs.
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        headless=True,
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"],
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    page.goto(f"{local}/")
    settled(page)
    assert installability_errors(page) == []
    page.goto(f"{lan}/")
    settled(page)
    assert installability_errors(page) == ["not-from-secure-origin"]
    context.close()


def test_the_home_screen_icon_looked_at(both_ways):
    chromium, _, local = both_ways
    context = chromium.new_context(viewport={"width": 600, "height": 260})
    page = context.new_page()
    page.set_content(
        '<body style="background:#777;display:flex;gap:16px;align-items:center">'
        f'<img src="{local}/icons/192.png" width="96">'
        f'<img src="{local}/icons/512-maskable.png" width="96" style="border-radius:50%">'
        f'<img src="{local}/icons/apple-touch-icon.png" width="96" style="border-radius:22px">'
        f'<img src="{local}/icons/512.png" width="192"></body>'
    )
    page.wait_for_function("() => [...document.images].every(img => img.complete && img.naturalWidth > 0)")
    shot(page, "home-screen-icons", full_page=False)
    context.close()


def test_the_result_is_copied_as_text_over_plain_http(both_ways):
    """No Clipboard API on the home network's plain http: the text is selected and copied the old way."""
    chromium, lan, local = both_ways
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    body = {"ruleset": "ten-pennies", "players": ["Ann", "Bob"], "first_dealer": "Ann"}
    gid = page.request.post(f"{local}/api/games", data=body).json()["id"]  # the test's own requests: by address
    for _ in range(7):
        page.request.post(f"{local}/api/games/{gid}/rounds", data={"went_out": "Ann", "caught": {"Bob": "K"}})
    page.goto(f"{lan}/games/{gid}")
    settled(page)
    assert page.evaluate("window.isSecureContext") is False
    card = page.locator(".share-card")
    card.locator("button.copy-card").click()
    said = card.locator(".copy-said").inner_text()
    assert said in ("Copied: paste it into the chat.", "Selected: copy it with your phone's menu.")
    selected = page.evaluate(
        "() => { const t = document.getElementById('share-card-text');"
        " return t.value.substring(t.selectionStart, t.selectionEnd); }"
    )
    assert selected.startswith(f"Game {gid} · Ten Pennies\nAnn wins the bowl: 7 pennies ($0.07)")
    image = card.locator("img")
    image.scroll_into_view_if_needed()  # a lazy image: asked for once in sight, drawn a moment later
    loaded = "(img) => img.complete ? img.naturalWidth : 0"
    for _ in range(100):
        if page.evaluate(loaded, image.element_handle()):
            break
        page.wait_for_timeout(100)
    assert page.evaluate(loaded, image.element_handle()) == 1080
    shot(page, "share-card-lan", full_page=False)
    context.close()
