"""Issue 29 on a phone (390 px): a player's record, the season filter, head to head from the player
page, and the season leaderboard, read off the screen. Three games of Ten Pennies played today."""

from __future__ import annotations

from datetime import date

from browser_support import PHONE, settled, shot

FOUR = ["Rae", "Sol", "Tam", "Uma"]  # names of their own: the module's server keeps only its own players


def post(page, base_url, path, body):
    answer = page.request.post(f"{base_url}{path}", data=body)
    assert answer.ok, (path, answer.status, answer.text())
    return answer.json()


def play(page, base_url, went_out, caught):
    """Seven rounds alike: the same player goes out, the others are caught with the same cards."""
    body = {"ruleset": "ten-pennies", "players": FOUR, "first_dealer": "Rae"}
    gid = post(page, base_url, "/api/games", body)["id"]
    for _ in range(7):
        post(page, base_url, f"/api/games/{gid}/rounds", {"went_out": went_out, "caught": caught})


def figure(page, name: str) -> str:
    return page.locator(".figures div").filter(has=page.locator("dt", has_text=name)).locator("dd").inner_text()


def test_a_players_record_and_head_to_head_read_off_a_phone(phone, base_url):
    # Rae wins the first two (Sol K: 7 p, Tam 5 5: 14 p, Uma 5: 7 p → +28 each), Sol the third
    # (Rae K K: 14 p, Tam 5: 7 p, Uma nothing → Uma and Sol tie on 0 and share 21: 10 each, 1 left).
    play(phone, base_url, "Rae", {"Sol": "K", "Tam": "5 5", "Uma": "5"})
    play(phone, base_url, "Rae", {"Sol": "K", "Tam": "5 5", "Uma": "5"})
    play(phone, base_url, "Sol", {"Rae": "K K", "Tam": "5", "Uma": ""})
    phone.goto(f"{base_url}/players")
    phone.get_by_role("link", name="Rae").first.click()
    settled(phone)
    assert figure(phone, "Games") == "3"
    assert figure(phone, "Wins") == "2 (67%)"
    assert figure(phone, "Longest winning streak") == "2 games"
    assert figure(phone, "Money") == "+$0.42"  # 28 + 28 − 14
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "records-player-390")
    # The filter: Ten Pennies this year reads the same three games.
    phone.locator("select[name=ruleset]").select_option("ten-pennies")
    phone.locator("select[name=year]").select_option(str(date.today().year))
    phone.get_by_role("button", name="Show").click()
    settled(phone)
    assert phone.locator("h2").first.inner_text() == f"Ten Pennies, {date.today().year}"
    assert figure(phone, "Points a round") == "6.7"  # 0 + 0 + 7 × 20, over 21 rounds
    # Head to head with Sol, from the player page.
    phone.get_by_text("Head to head").click()
    phone.get_by_role("link", name="Sol").click()
    settled(phone)
    assert phone.locator("h1").inner_text() == "Rae against Sol"
    assert figure(phone, "Rae finished ahead") == "2" and figure(phone, "Sol finished ahead") == "1"
    assert figure(phone, "Rae's money minus Sol's") == "+$0.46"  # (28 + 7) × 2 − (14 + 10)
    shot(phone, "records-versus-390")


def test_a_bad_date_in_the_address_is_named(phone, base_url):
    answer = phone.goto(f"{base_url}/players?from=2026-02-30")
    assert answer.status == 400
    assert "from '2026-02-30' is not a date" in phone.locator("body").inner_text()
