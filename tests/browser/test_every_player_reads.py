"""Every player can read it (issue 44): four-colour suits chosen once and kept on the phone, the card
pad's buttons named in full for a screen reader, the scores said politely when they change, a theme
for a dim room or a bright television, and axe-core's checks in light, dark and forced colours."""

from __future__ import annotations

import pytest
from browser_support import axe, settled, shot
from playwright.sync_api import expect
from support import showcase

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Bob", "Cy", "Di"]


def new_game(page, base_url) -> int:
    body = {"ruleset": "ten-pennies", "players": NAMES, "first_dealer": "Ann"}
    return page.request.post(f"{base_url}/api/games", data=body).json()["id"]


def live_url(page, base_url, game_id: int) -> str:
    page.goto(f"{base_url}/games/{game_id}")
    href = page.locator("a[href*='/live/']").first.get_attribute("href")
    return href if href.startswith("http") else f"{base_url}{href}"


def colour_of(page, selector: str) -> str:
    return page.locator(selector).first.evaluate("e => getComputedStyle(e).color")


def test_four_colour_suits_are_kept_on_the_phone(browser, base_url):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    gid = new_game(page, base_url)
    page.goto(live_url(page, base_url, gid))
    settled(page)
    page.locator(".display-settings summary").click()
    page.select_option("#display-suits", "four")
    expect(page.locator("html")).to_have_attribute("data-suits", "four")
    page.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(page)
    assert colour_of(page, ".tap.suit-d") == "rgb(0, 114, 178)"  # blue diamonds on the scorekeeper's pad too
    assert colour_of(page, ".tap.suit-c") == "rgb(83, 42, 120)"
    shot(page, "four-colour-pad", full_page=False)
    context.close()


def test_the_card_pad_is_named_in_full(browser, base_url):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    gid = new_game(page, base_url)
    page.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(page)
    pad = page.locator(".tap-pad").first
    for name in ("Ace", "Jack", "Queen", "King", "Joker", "10", "hearts (on the last card)"):
        expect(pad.get_by_role("button", name=name, exact=True)).to_have_count(1)
    context.close()


def test_the_scores_are_said_when_they_change_and_a_theme_is_chosen(browser, base_url):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    gid = new_game(page, base_url)
    page.goto(live_url(page, base_url, gid))
    settled(page)
    caught = {"Bob": "K 7", "Cy": "5", "Di": ""}
    page.request.post(f"{base_url}/api/games/{gid}/rounds", data={"went_out": "Ann", "caught": caught})
    expect(page.locator(".live-said")).to_have_text("Scores: Ann 0, Di 0, Cy 5, Bob 15; bowl 3.", timeout=10000)
    assert page.locator(".live-said").get_attribute("aria-live") == "polite"
    page.locator(".display-settings summary").click()
    page.select_option("#display-theme", "contrast")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)"
    shot(page, "live-high-contrast", full_page=False)
    page.goto(f"{base_url}/games/{gid}/table")
    settled(page)
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)"  # kept
    context.close()


MODES = {
    "light": {"color_scheme": "light"},
    "dark": {"color_scheme": "dark"},
    "forced": {"forced_colors": "active"},
    "high contrast": {"color_scheme": "light"},  # the app's own theme, chosen on the phone (issue 60)
}
THEME_CHOSEN = {"high contrast": "contrast"}


def every_page(browser, base_url) -> list[str]:
    """Every page of the app (tests/support.showcase: 8 players, a leader, a tie, a locked night, two
    Pennies From Heaven sides …), made on one phone through the API; opened on another by the test."""
    maker = browser.new_context()
    request = maker.request

    def call(method: str, path: str, body):
        answer = request.fetch(f"{base_url}{path}", method=method, data=body)
        assert answer.ok, f"{method} {path}: {answer.status} {answer.text()[:200]}"
        return answer.json()

    try:
        return showcase(call, lambda path: request.get(f"{base_url}{path}").text())
    finally:
        maker.close()


def url(base_url: str, path: str) -> str:
    return path if path.startswith("http") else f"{base_url}{path}"


@pytest.fixture(scope="module")
def pages(browser, base_url) -> list[str]:
    return every_page(browser, base_url)


@pytest.mark.parametrize("mode", list(MODES))
def test_axe_finds_nothing_in_light_dark_forced_colours_and_high_contrast(browser, base_url, pages, mode):
    """axe-core's latest release (npm) over every page, in each of the four ways a phone may show it."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.emulate_media(**MODES[mode])
    if mode in THEME_CHOSEN:  # kept on the phone, as Display keeps it
        page.goto(f"{base_url}/")
        page.evaluate(
            "(theme) => localStorage.setItem('scorekeeper-display', JSON.stringify({theme}))", THEME_CHOSEN[mode]
        )
    checker = axe()
    found = []
    for path in pages:
        page.goto(url(base_url, path))
        settled(page)
        if mode in THEME_CHOSEN:
            assert page.evaluate("document.documentElement.dataset.theme") == THEME_CHOSEN[mode], path
        result = checker.run(page, options={"resultTypes": ["violations"]})
        found += [
            f"{path}: {v['id']} ({v['impact']}) at {node['target']}: {node['failureSummary']}"
            for v in result.response["violations"]
            for node in v["nodes"]
        ]
    assert found == [], "\n".join(found)
    context.close()


def test_every_page_reads_at_200_percent_text(browser, base_url, pages):
    """Text at twice its size (WCAG 1.4.4): a phone 390 px wide zoomed to 200% is 195 CSS px; no page
    needs scrolling sideways (a scorepad scrolls inside its own box)."""
    context = browser.new_context(viewport={"width": 195, "height": 422}, is_mobile=True, has_touch=True)
    page = context.new_page()
    wide = []
    for path in pages:
        page.goto(url(base_url, path))
        settled(page)
        if page.evaluate("document.documentElement.scrollWidth") > 196:
            wide.append(f"{path}: {page.evaluate('document.documentElement.scrollWidth')} px")
    assert wide == [], "\n".join(wide)
    context.close()
