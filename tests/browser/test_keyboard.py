"""Led by the keyboard (issue 60): "after a buy, focus falls to the page body (the next buy is 7 Tabs away,
a screen reader starts from the top)". A whole round and two buys for a player who is not the first,
with the keyboard alone: Tab, Space, Enter and typing."""

from __future__ import annotations

from browser_support import come_to_rest, new_game, shot
from playwright.sync_api import expect

NAMES = ["Ann", "Bob", "Cy", "Di"]
MOST_TABS = 80


def tab_to(page, selector: str) -> None:
    """Tab forward until ``selector`` has the focus, as a keyboard user would."""
    for _ in range(MOST_TABS):
        if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} never came with Tab")


def focused(page, selector: str) -> bool:
    return bool(page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector))


def buys_left(page, name: str) -> str:
    return page.locator(f'button.buy[data-player="{name}"]').inner_text()


def test_a_round_and_two_buys_with_the_keyboard_alone(phone, base_url):
    page = phone
    game_url = new_game(page, base_url, NAMES)
    come_to_rest(page)
    cy = 'button.buy[data-player="Cy"]'
    before = buys_left(page, "Cy")
    tab_to(page, cy)
    page.keyboard.press("Enter")
    expect(page.locator(cy)).not_to_have_text(before)
    come_to_rest(page)
    assert focused(page, cy), "the focus left Cy's buy after the buy was drawn"
    once = buys_left(page, "Cy")
    page.keyboard.press("Enter")  # the next buy is where the focus is: no Tab needed
    expect(page.locator(cy)).not_to_have_text(once)
    come_to_rest(page)
    assert focused(page, cy)
    shot(page, "keyboard-after-two-buys", full_page=False)
    # The round: the form by its link, who went out, each line typed, Save.
    tab_to(page, "a.enter-round, a[href$='/rounds/new']")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{game_url}/rounds/new")
    come_to_rest(page)
    tab_to(page, 'input[name="went_out"]')
    for _ in range(len(NAMES)):  # arrows move within a group of radio buttons
        if focused(page, 'input[name="went_out"][value="Ann"]'):
            break
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Space")
    for name, cards in (("Bob", "K 7"), ("Cy", "5 5"), ("Di", "")):
        tab_to(page, f'.hand-row[data-player="{name}"] .hand-input')
        page.keyboard.type(cards)
    tab_to(page, "button.save")
    page.keyboard.press("Enter")
    page.wait_for_url(game_url)
    come_to_rest(page)
    state = page.request.get(game_url.replace("/games/", "/api/games/")).json()
    assert len(state["rounds"]) == 1
    points = {player["name"]: player["points"] for player in state["players"]}
    assert points == {"Ann": 0, "Bob": 15, "Cy": 10, "Di": 0}  # RULES.md: K 10, 7 5; 5 and 5
