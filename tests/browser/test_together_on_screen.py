"""What a phone shows when things happened together: a game whose stored history holds entries the
rules refuse (written by an earlier version while two phones raced), and a second phone starting a
game in a night that the first phone locked meanwhile."""

from __future__ import annotations

import re

import pytest
from browser_support import PHONE, serving, settled, shot
from support import PLAYERS, free_port, make_app

from scorekeeper.store import Store


@pytest.fixture
def served(tmp_path):
    """A server of its own, so the test can write into its database as an earlier version did."""
    app = make_app(tmp_path, TESTING=False)
    port = free_port()
    with serving(app, port):
        yield app, f"http://127.0.0.1:{port}"


def test_a_game_with_entries_the_rules_refuse_says_which_on_the_phone(served, phone):
    app, base = served
    client = app.test_client()
    gid = client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS}).get_json()["id"]
    store = Store(app.config["DATABASE"])
    for version in range(11):  # Ann's 11 buys, as two phones racing once stored them
        store.append_event(gid, "buy", {"round": 1, "player": "Ann"}, version, store.next_event_id())
    eleventh = store.events(gid)[-1]["id"]
    phone.goto(f"{base}/games/{gid}")
    settled(phone)
    banner = phone.locator("[role=alert]", has_text="that the rules refuse")
    assert banner.is_visible()
    assert f"entry {eleventh}: Ann has used all 10 buys of the game; an 11th buy is refused" in banner.inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "impossible-history-named")


def test_a_second_phone_starting_a_game_in_a_night_locked_meanwhile_is_told_so(served, browser):
    app, base = served
    night = app.test_client().post("/api/nights", json={"name": "Fri"}).get_json()["id"]
    phones = [browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page() for _ in range(2)]
    for page in phones:  # both open the new-game form while the night has no PIN
        page.goto(f"{base}/games/new")
        for seat, name in enumerate(PLAYERS):
            page.fill(f"#players-{seat}", name)
        page.select_option("#night", str(night))
        page.select_option("#first_dealer", "0")
    phones[0].fill("#pin", "1111")
    phones[0].locator("button[type=submit]").click()
    phones[0].wait_for_url(re.compile(r"/games/\d+$"))
    phones[1].fill("#pin", "2222")
    phones[1].locator("button[type=submit]").click()
    settled(phones[1])
    alert = phones[1].locator(".flash-error")
    assert alert.is_visible()
    assert f"night {night} is locked" in alert.inner_text()
    assert phones[1].input_value("#players-0") == "Ann"  # what was typed is kept
    shot(phones[1], "second-pin-refused")
    for page in phones:
        page.context.close()
