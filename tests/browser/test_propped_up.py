"""The table view: a phone or a tablet propped up in the middle of the table, read from across it."""

from __future__ import annotations

import pytest
from browser_support import PHONE, settled, shot
from playwright.sync_api import expect

NAMES = ["Ann", "Bartholomew", "Cy", "D'Arcy", "Evangeline", "Flo", "Gus", "Hal O'Brien"]
# Three rounds, written out: who went out and each other player's cards (Ten Pennies card points:
# 3–9 = 5, 10–K = 10, 2 and A = 20, joker = 50).
ROUNDS = [
    (
        "Ann",
        {
            "Bartholomew": "K K",
            "Cy": "JKR",
            "D'Arcy": "5",
            "Evangeline": "",
            "Flo": "A 2",
            "Gus": "9",
            "Hal O'Brien": "10 J Q",
        },
    ),
    (
        "Cy",
        {
            "Ann": "5 5",
            "Bartholomew": "",
            "D'Arcy": "K",
            "Evangeline": "2",
            "Flo": "",
            "Gus": "3 4",
            "Hal O'Brien": "JKR JKR",
        },
    ),
    (
        "Gus",
        {"Ann": "", "Bartholomew": "Q", "Cy": "A", "D'Arcy": "", "Evangeline": "7 7", "Flo": "J", "Hal O'Brien": ""},
    ),
]
# Totals after the three rounds, added up by hand from the card points above.
TOTALS = {
    "Ann": 10,
    "Bartholomew": 30,
    "Cy": 70,
    "D'Arcy": 15,
    "Evangeline": 30,
    "Flo": 50,
    "Gus": 15,
    "Hal O'Brien": 130,
}
LANDSCAPE_TABLET = {"width": 1180, "height": 820}


def start_game(page, base_url) -> int:
    answer = page.request.post(
        f"{base_url}/api/games", data={"ruleset": "ten-pennies", "players": NAMES, "first_dealer": "Ann"}
    )
    assert answer.status == 201, answer.text()
    game_id = answer.json()["id"]
    for went_out, caught in ROUNDS:
        post_round(page, base_url, game_id, went_out, caught)
    return game_id


def post_round(page, base_url, game_id, went_out, caught) -> None:
    answer = page.request.post(f"{base_url}/api/games/{game_id}/rounds", data={"went_out": went_out, "caught": caught})
    assert answer.status in (200, 201), answer.text()


def px(page, selector: str) -> float:
    return page.evaluate(f"parseFloat(getComputedStyle(document.querySelector({selector!r})).fontSize)")


def check_table_view(page) -> None:
    settled(page)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "sideways scroll"
    body = px(page, "body")
    assert px(page, ".tv-total") >= 2 * body
    rows = page.locator(".tv-row")
    assert rows.count() == 8
    names = [rows.nth(i).locator(".tv-name").inner_text() for i in range(8)]
    totals = [int(rows.nth(i).locator(".tv-total").inner_text()) for i in range(8)]
    # Lowest wins: ranked from the lowest total; equal totals keep seat order.
    assert names == sorted(NAMES, key=lambda name: (TOTALS[name], NAMES.index(name)))
    assert totals == [TOTALS[name] for name in names]
    assert [rows.nth(i).locator(".tv-rank").inner_text() for i in range(8)] == ["1", "2", "2", "4", "4", "6", "7", "8"]
    assert rows.nth(0).locator(".tv-gap").inner_text().startswith("leads")
    assert rows.nth(7).locator(".tv-gap").inner_text().startswith("120 behind")
    for i in range(8):  # every name and number is on screen, none cut off by the row
        box = rows.nth(i).locator(".tv-total").bounding_box()
        assert box is not None and box["x"] + box["width"] <= page.viewport_size["width"]
    assert "keep-awake" in (page.locator("body").get_attribute("class") or "")


@pytest.mark.parametrize("device", ["phone", "tablet"])
def test_table_view_of_eight_players_reads_across_the_table_and_follows_entries(browser, base_url, device):
    viewport = PHONE if device == "phone" else LANDSCAPE_TABLET
    context = browser.new_context(viewport=viewport, device_scale_factor=2, is_mobile=device == "phone", has_touch=True)
    page = context.new_page()
    game_id = start_game(page, base_url)
    page.goto(f"{base_url}/games/{game_id}")
    page.locator(".topbar a:has-text('Table view')").click()
    page.wait_for_url(f"{base_url}/games/{game_id}/table")
    check_table_view(page)
    card = page.locator(".tv-card")
    # Round 4 of Ten Pennies (ten-pennies.toml): 1 set of 5, dealt by the 4th seat, played first by the 5th.
    assert page.locator(".tv-progress").inner_text().startswith("Round 4 of 7")
    expect(card.locator(".tv-contract")).to_have_text("1 set of 5")
    assert "D'Arcy" in card.inner_text() and "Evangeline" in card.inner_text()
    assert "Bowl" in card.inner_text()
    shot(page, f"table-view-8-players-{device}", full_page=False)
    shot(page, f"table-view-8-players-{device}-whole")

    # The scorekeeper enters round 4 elsewhere: the view follows without a reload.
    post_round(page, base_url, game_id, "Ann", {name: "" for name in NAMES[1:]})
    expect(page.locator(".tv-progress")).to_contain_text("Round 5 of 7", timeout=8000)
    context.close()
