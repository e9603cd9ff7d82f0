"""Help on a phone (issue 43): the guide answers with nothing fetched from outside the app (the
table's Wi-Fi may have no internet), and "how do the players' phones join" is in a game page's first
screen and leads a player's phone into the game."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
from browser_support import settled, shot
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 640}


def test_the_guide_answers_with_nothing_from_outside(browser, base_url):
    context = browser.new_context(viewport=SMALL_PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    asked: list[str] = []
    server = urlparse(base_url).netloc

    def only_this_server(route):
        asked.append(route.request.url)
        if urlparse(route.request.url).netloc == server:
            route.continue_()
        else:
            route.abort()

    page.route("**/*", only_this_server)
    page.goto(f"{base_url}/")
    page.click("nav.sections-top a:has-text('Help')")
    settled(page)
    expect(page.locator("h1")).to_contain_text("The user's guide")
    page.wait_for_function("() => [...document.images].every(img => img.complete && img.naturalWidth > 0)")
    assert all(urlparse(url).netloc == server for url in asked)
    page.locator("#the-players-phones").scroll_into_view_if_needed()
    shot(page, "help-guide-360", full_page=False)
    context.close()


def test_how_the_phones_join_is_in_the_first_screen_of_a_game(browser, base_url):
    context = browser.new_context(viewport=SMALL_PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    game = page.request.post(f"{base_url}/api/games", data={"ruleset": "ten-pennies", "players": ["Ann", "Bob"]})
    page.goto(f"{base_url}/games/{game.json()['id']}")
    settled(page)
    join = page.locator('summary:has-text("Players\' phones")')
    box = join.bounding_box()
    assert box is not None and box["y"] + box["height"] <= SMALL_PHONE["height"]
    join.tap()
    link = page.locator(".phones-link a.url")
    expect(link).to_be_visible()
    expect(page.locator(".phones-link .qr svg")).to_be_visible()
    shot(page, "players-phones-join-360", full_page=False)
    player = context.new_page()
    player.goto(link.get_attribute("href"))
    settled(player)
    player.select_option('select[name="me"]', "Bob")
    expect(player.locator(".your-round")).to_contain_text("Round 1: 2 sets of 3.")
    context.close()
