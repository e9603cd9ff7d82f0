"""A game's entries in table words (scorekeeper/history.py): what a buy just did, and the History
page numbering a game's own entries from 1 (ids are numbered across all games: game 4 began at #73)."""

from __future__ import annotations

import re

from support import Api, csrf_token


def buy_on_the_page(client, gid: int, player: str) -> str:
    page = client.get(f"/games/{gid}").text
    key = re.search(r'name="entry_key" value="([^"]+)"', page)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page) or re.search(
        r'name="version" value="(\d+)"', page
    )
    data = {"csrf_token": csrf_token(page), "player": player, "entry_key": f"{key.group(1) if key else 'k'}-{player}"}
    if version:
        data["version"] = version.group(1)
    client.post(f"/games/{gid}/buys", data=data)
    return client.get(f"/games/{gid}").text


def test_a_buy_that_costs_points_says_so(api: Api, client):
    """Ten Card Rummy (RULES.md): 3 free buys a round from round 4; each buy beyond adds 100 points."""
    gid = api.new_game(ruleset="ten-card-rummy")["id"]
    for _ in range(3):
        api.round(gid, "Ann", {"Bob": "", "Cy": "", "Di": ""})
    for _ in range(3):
        api.buy(gid, "Cy")
    assert "Cy bought the discard — the 4th buy this round: +100 points" in buy_on_the_page(client, gid, "Cy")
    assert "Bob bought the discard — the 1st buy this round" in buy_on_the_page(client, gid, "Bob")


def test_a_buy_from_the_stack_says_the_buys_left(api: Api, client):
    gid = api.new_game()["id"]
    assert "Bob bought the discard — 9 buys left" in buy_on_the_page(client, gid, "Bob")


def test_history_numbers_a_games_own_entries_from_1(api: Api, client):
    first = api.new_game()["id"]
    for _ in range(3):
        api.buy(first, "Bob")
    second = api.new_game()["id"]
    api.buy(second, "Cy")
    api.round(second, "Ann", {"Bob": "K", "Cy": "", "Di": ""})
    page = client.get(f"/games/{second}/history").text
    assert re.findall(r'<span class="entry-id"[^>]*>#(\d+)</span>', page) == ["2", "1"]  # newest first
