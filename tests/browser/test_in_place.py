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


def requests_to(page, part: str) -> list[str]:
    """Every address this page asks for from now on that contains ``part``."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url) if part in request.url else None)
    return seen


def test_the_round_form_opens_and_saves_in_place_and_back_opens_the_game_as_it_is(phone, base_url):
    """Enter round and Save are drawn in this document (no new page to load on a slow phone): the
    address is the page's own, the form works as opened, its polls stop once the game page is back,
    and Back opens the round form again as the game is now (the next round)."""
    page = phone
    gid = open_game(page, base_url)
    with answered(page):
        page.locator("a:has-text('Enter round')").tap()
    assert page.evaluate("() => window.sameDocument === true"), "the round form was opened as a new page"
    assert page.url == f"{base_url}/games/{gid}/rounds/new"
    expect(page.locator("h1, h2").first).to_contain_text("round 1")
    # Read from its heading, as a page the browser opened is; no keyboard over the card pad.
    assert page.evaluate("document.activeElement.matches('main h1, main h2')")
    come_to_rest(page)
    page.locator('.went-out label:has-text("Ann")').tap()
    page.locator('.hand-row[data-player="Bob"] .hand-name').tap()
    page.locator('.tap[data-card="K"]').tap()
    expect(page.locator('.hand-row[data-player="Bob"] .live')).to_contain_text("pts")  # the engine's preview
    with answered(page):
        page.locator("button.save").tap()
    assert page.evaluate("() => window.sameDocument === true"), "the game page was opened as a new page"
    assert page.url == f"{base_url}/games/{gid}"
    expect(page.locator(".outcome")).to_contain_text("Round 1 saved")
    assert len(page.request.get(f"{base_url}/api/games/{gid}").json()["rounds"]) == 1
    drafts = requests_to(page, "/drafts")
    page.wait_for_timeout(2000)
    assert drafts == [], "the round form's poll went on after the form was left"
    shot(page, "in-place-round-saved", full_page=False)
    page.go_back()
    page.wait_for_function("() => window.sameDocument === undefined && document.readyState === 'complete'")
    assert page.url == f"{base_url}/games/{gid}/rounds/new"
    expect(page.locator("h1, h2").first).to_contain_text("round 2")


def test_files_and_following_pages_open_as_pages(phone, base_url):
    """A file is asked for once (never fetched to be drawn first), and the table view, which follows
    the game by itself, opens as its own page."""
    page = phone
    gid = open_game(page, base_url)
    files = requests_to(page, "/export.csv")
    with page.expect_download() as download:
        page.locator("a:has-text('CSV')").click()
    assert download.value.suggested_filename.endswith(".csv")
    assert len(files) == 1
    with page.expect_navigation():
        page.locator("a:has-text('Table view')").tap()
    assert page.evaluate("() => window.sameDocument === undefined")
    assert page.url == f"{base_url}/games/{gid}/table"


def test_the_meld_checker_answers_in_place(phone, base_url):
    """A player checking hand after hand: each Check is answered in this document, the address says
    what was asked (Back or a reload asks it again), and the pad still takes cards."""
    page = phone
    page.goto(f"{base_url}/melds?ruleset=ten-pennies&round=1&stage=hand")
    come_to_rest(page)
    page.evaluate("() => { window.sameDocument = true; }")
    page.locator('input[name="melds-0"]').fill("9 9 9 4 4 4")
    with answered(page):
        page.locator("button.save").tap()
    assert page.evaluate("() => window.sameDocument === true"), "the answer was opened as a new page"
    expect(page.locator(".verdict")).to_contain_text("Makes the contract")
    assert "melds-0=9+9+9+4+4+4" in page.url
    assert page.locator('input[name="melds-0"]').input_value() == "9 9 9 4 4 4"  # what was asked stays
    shot(page, "in-place-meld-check", full_page=False)
    come_to_rest(page)
    page.locator('input[name="melds-0"]').fill("9 9 4 4")
    with answered(page):
        page.locator("button.save").tap()
    assert page.evaluate("() => window.sameDocument === true")
    expect(page.locator(".verdict")).not_to_contain_text("Makes the contract")


def test_a_link_tapped_while_the_wifi_is_down_leaves_the_game_on_screen(phone, base_url):
    """The Wi-Fi drops and the scorekeeper taps History: the game page stays (not the browser's error
    page, which Back could not bring the game back from), says why nothing opened, and the same tap
    works once the server answers again."""
    page = phone
    gid = open_game(page, base_url)
    page.context.set_offline(True)
    page.locator("header a:has-text('History')").tap()
    note = page.locator(".offline-note")
    expect(note).to_contain_text("No answer from the server: this page stays as it is")
    assert page.evaluate("() => window.sameDocument === true")
    assert page.url == f"{base_url}/games/{gid}"
    expect(buy_button(page, "Ann")).to_be_visible()
    shot(page, "in-place-offline-link", full_page=False)
    page.context.set_offline(False)
    come_to_rest(page)
    with answered(page):
        page.locator("header a:has-text('History')").tap()
    assert page.url == f"{base_url}/games/{gid}/history"
    expect(page.locator("h1")).to_contain_text("History")
