"""A buy and an undo drawn in place (issue 45): the game page is not loaded again on a slow phone,
its main part is drawn from the server's answer. What a page load gave must hold in place too: the
entry key (a new one for the next tap, the double tap still one entry), the refusal in words, the
Undo of the message, and nothing moving under the thumb."""

from __future__ import annotations

import pytest
from browser_support import answered, buy_button, centre, come_to_rest, settled, shot
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Di"]


def open_game(page, base_url) -> int:
    body = {"ruleset": "ten-pennies", "players": NAMES, "first_dealer": "Ann"}
    gid = int(page.request.post(f"{base_url}/api/games", data=body).json()["id"])
    page.goto(f"{base_url}/games/{gid}")
    come_to_rest(page)
    page.evaluate("() => { window.sameDocument = true; }")  # gone if the page is loaded again
    return gid


def buys_left(page, base_url, gid) -> dict[str, int]:
    players = page.request.get(f"{base_url}/api/games/{gid}").json()["players"]
    return {player["name"]: player["buys_left"] for player in players}


def entry_keys(page) -> list[str]:
    return page.eval_on_selector_all(".buy-list input[name=entry_key]", "(inputs) => inputs.map((i) => i.value)")


def test_a_buy_is_drawn_in_place_with_its_undo_and_nothing_moves(phone, base_url):
    page = phone
    gid = open_game(page, base_url)
    keys_before = entry_keys(page)
    spot = centre(buy_button(page, "Bob"))
    with answered(page):
        buy_button(page, "Bob").tap()
    assert page.evaluate("() => window.sameDocument === true"), "the page was loaded again"
    settled(page)
    expect(page.locator(".outcome")).to_contain_text("Bob bought the discard")
    expect(page.locator(".undo-offer")).to_contain_text("Undo Bob’s buy")
    expect(buy_button(page, "Bob")).to_contain_text("9 left")
    assert centre(buy_button(page, "Bob")) == pytest.approx(spot, abs=1)  # under the thumb as it was
    assert buys_left(page, base_url, gid)["Bob"] == 9
    keys_after = entry_keys(page)
    assert keys_after and not set(keys_after) & set(keys_before)  # the next tap is a new entry
    shot(page, "in-place-buy", full_page=False)
    come_to_rest(page)
    with answered(page):
        page.locator(".undo-offer button").tap()
    assert page.evaluate("() => window.sameDocument === true")
    expect(page.locator(".outcome")).to_contain_text("Undid Bob’s buy")
    assert buys_left(page, base_url, gid)["Bob"] == 10


def test_a_buy_the_game_moved_past_is_refused_in_words_in_place(phone, base_url):
    page = phone
    gid = open_game(page, base_url)
    caught = {"Bob": "K", "Cy": "5", "Di": ""}
    saved = page.request.post(f"{base_url}/api/games/{gid}/rounds", data={"went_out": "Ann", "caught": caught})
    assert saved.status == 201  # another phone saved round 1: this page still shows round 1's buys
    with answered(page):
        buy_button(page, "Di").tap()
    assert page.evaluate("() => window.sameDocument === true")
    expect(page.locator(".outcome .flash-error")).to_contain_text("Not saved")
    assert buys_left(page, base_url, gid)["Di"] == 10
    expect(page.locator(".buy-list")).to_be_visible()
    expect(page.locator("h2:has-text('Buys')")).to_contain_text("round 2")  # drawn as the game is now
    shot(page, "in-place-buy-refused", full_page=False)
