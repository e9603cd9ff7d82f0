"""A game's entries in table words (scorekeeper/reads/history.py): what a buy just did, and the History
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


def test_the_history_says_each_suited_card_by_name_to_a_screen_reader(api, client):
    """Issue 60: cards outside the pad were read "K black diamond suit"; the eye sees K♦, the screen
    reader hears "king of diamonds"."""
    gid = api.new_game()["id"]
    api.round(gid, "Ann", {"Bob": "KD 7C", "Cy": "JKR", "Di": ""})
    page = client.get(f"/games/{gid}/history").text
    assert '<span aria-hidden="true">K♦</span><span class="visually-hidden">king of diamonds</span>' in page
    assert '<span aria-hidden="true">7♣</span><span class="visually-hidden">seven of clubs</span>' in page
    assert '<span aria-hidden="true">JKR</span><span class="visually-hidden">joker</span>' in page


def test_the_meld_checker_says_its_cards_by_name_too(client):
    page = client.get("/melds?ruleset=ten-pennies&round=1&stage=first-down&melds-0=7S+7H+7D&melds-1=9C+9D+JKR").text
    assert '<span aria-hidden="true">9♣</span><span class="visually-hidden">nine of clubs</span>' in page


def test_a_scorepad_cell_says_what_its_numbers_are(api, client):
    """Issue 60: "the scorepad's cells read as bare runs of numbers". Bob caught with K 7 in round 1:
    15 points this round, 15 in all (RULES.md: 10–K 10, 3–9 5)."""
    gid = api.new_game()["id"]
    api.round(gid, "Ann", {"Bob": "K 7", "Cy": "", "Di": ""})
    page = client.get(f"/games/{gid}").text
    cells = [
        " ".join(re.sub(r"<[^>]+>", " ", cell).split())
        for cell in re.findall(r"<td class=\"[^\"]*\">(.*?)</td>", page, re.S)
    ]
    assert any(cell.startswith("15 points this round; in all 15") for cell in cells), cells[:6]
