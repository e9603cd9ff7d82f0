"""The evening, not the game (issue 40): two players' phones and the tablet open the night's link once,
before the first game, and follow the night by themselves through four games: a game started from
the night page, a rematch, a new game of another ruleset made from the night ("ready to play"), and a
game one of the players sits out. Each screen shows each new game within 5 s of its start with no
navigation by the test, a player's phone shows the game that player sits in, and every screen shows
the money at game over."""

from __future__ import annotations

import pytest
from browser_support import PHONE, settled, shot
from playwright.sync_api import expect

NAMES = ["Ann", "Bob", "Cy", "Di", "Eve"]
TABLET_LANDSCAPE = {"width": 1180, "height": 820}
FOLLOW_MS = 5000  # a new game shows on every screen within 5 s of its start


@pytest.fixture
def evening(browser):
    def context(viewport):
        return browser.new_context(viewport=viewport, device_scale_factor=2, is_mobile=True, has_touch=True)

    contexts = [context(PHONE), context(PHONE), context(PHONE), context(TABLET_LANDSCAPE)]
    yield tuple(c.new_page() for c in contexts)
    for c in contexts:
        c.close()


def play_out(page, base_url, game_id: int) -> dict:
    """Every round of a game entered as the scorekeeper's phone does, through the API."""
    game = page.request.get(f"{base_url}/api/games/{game_id}").json()
    players = [p["name"] for p in game["players"]]
    while True:
        game = page.request.get(f"{base_url}/api/games/{game_id}").json()
        if game["finished"]:
            return game
        caught = {name: ("K 5" if name == players[1] else "") for name in players[1:]}
        answer = page.request.post(
            f"{base_url}/api/games/{game_id}/rounds", data={"went_out": players[0], "caught": caught}
        )
        assert answer.status == 201, answer.text()


def shows_game(page, game_id: int) -> None:
    expect(page.locator("#live h1").first).to_contain_text(f"Game {game_id}", timeout=FOLLOW_MS)


def shows_money(page) -> None:
    expect(page.locator("#live .game-money")).to_be_visible(timeout=FOLLOW_MS)


def test_phones_and_the_tablet_follow_a_four_game_night_from_one_link(evening, base_url):
    keeper, bob, cy, tablet = evening
    keeper.goto(f"{base_url}/nights")
    settled(keeper)
    with keeper.expect_navigation():
        keeper.get_by_role("button", name="Start a new night").click()
    night_id = int(keeper.url.rstrip("/").rsplit("/", 1)[-1])
    night_url = keeper.locator(".night-link a.url").get_attribute("href")
    assert night_url == keeper.request.get(f"{base_url}/api/nights/{night_id}").json()["share_url"]
    # Opened once, before the first game: every one of these pages is only ever navigated by itself.
    for page, url in ((bob, night_url), (cy, night_url), (tablet, f"{night_url}/table")):
        page.goto(url)
        settled(page)
        expect(page.locator(".waiting")).to_be_visible()

    # Game 1, started from the night page: 5 players, Ten Pennies at 5¢.
    with keeper.expect_navigation():
        keeper.get_by_role("link", name="+ New game tonight").click()
    for seat, name in enumerate(NAMES):
        keeper.locator(f"#players-{seat}").fill(name)
    keeper.locator("#penny_cents").fill("5")
    with keeper.expect_navigation():
        keeper.get_by_role("button", name="Start the game").click()
    first = int(keeper.url.rsplit("/", 1)[-1])
    settled(keeper)
    summary = keeper.locator(".night-link summary")
    expect(summary).to_be_in_viewport()  # the game page's first screen: one line, a tap opens it
    summary.click()
    expect(keeper.locator(".night-link a.url")).to_have_text(night_url)
    shot(keeper, "evening-game-page-with-the-nights-link", full_page=False)
    for page in (bob, cy, tablet):
        shows_game(page, first)
    for page, name in ((bob, "Bob"), (cy, "Cy")):  # said once for the whole night
        page.select_option('.my-hand select[name="me"]', name)
    shot(bob, "evening-bob-follows-game-1", full_page=False)
    play_out(keeper, base_url, first)
    for page in (bob, cy, tablet):
        shows_money(page)
    shot(tablet, "evening-tablet-game-over-money", full_page=False)
    shot(cy, "evening-cy-game-over-money", full_page=False)

    # Game 2: the rematch, from the finished game's page.
    keeper.goto(f"{base_url}/games/{first}")
    settled(keeper)
    with keeper.expect_navigation():
        keeper.get_by_role("button", name="Rematch: same players, the deal one seat on").click()
    second = int(keeper.url.rsplit("/", 1)[-1])
    assert second != first
    for page in (bob, cy, tablet):
        shows_game(page, second)
    expect(bob.locator('.my-hand select[name="me"]')).to_have_value("Bob")  # not asked again
    play_out(keeper, base_url, second)
    for page in (bob, cy, tablet):
        shows_money(page)

    # Game 3: a new game of the night, ready to play; the scorekeeper changes only the ruleset.
    keeper.goto(f"{base_url}/nights/{night_id}")
    settled(keeper)
    with keeper.expect_navigation():
        keeper.get_by_role("link", name="+ New game tonight").click()
    expect(keeper.locator(".ready")).to_be_visible()
    assert [keeper.locator(f"#players-{seat}").input_value() for seat in range(5)] == NAMES
    assert keeper.locator("#penny_cents").input_value() == "5"
    keeper.select_option("#ruleset", "ten-card-rummy")
    with keeper.expect_navigation():
        keeper.get_by_role("button", name="Start the game").click()
    third = int(keeper.url.rsplit("/", 1)[-1])
    for page in (bob, cy, tablet):
        shows_game(page, third)
    expect(cy.locator("#live h1").first).to_contain_text("Ten Card Rummy")
    play_out(keeper, base_url, third)
    for page in (bob, cy, tablet):
        expect(page.locator("#live .game-over, #live .tv-progress").first).to_contain_text(
            "Game over", timeout=FOLLOW_MS
        )

    # Game 4: Bob sits out. Cy's phone and the tablet go on to it; Bob's phone stays on his last game.
    body = {"ruleset": "ten-pennies", "night": night_id, "players": ["Ann", "Cy", "Di"]}
    fourth = keeper.request.post(f"{base_url}/api/games", data=body).json()["id"]
    for page in (cy, tablet):
        shows_game(page, fourth)
    bob.wait_for_timeout(2500)  # a poll or more later
    expect(bob.locator("#live h1").first).to_contain_text(f"Game {third}")
    expect(cy.locator('.my-hand select[name="me"]')).to_have_value("Cy")
    shot(cy, "evening-cy-on-game-4", full_page=False)
