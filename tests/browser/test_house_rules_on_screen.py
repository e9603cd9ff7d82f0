"""House rules in a real browser on a phone-sized screen (issue 42): "Ten Pennies, our way" made
through the form only, a game played under it and worked by hand, the rules changed (jokers worth
25) without moving the finished game; and a player's phone asking "Can I go down with these?"."""

from __future__ import annotations

import subprocess

import pytest
from browser_support import buy_button, settled, shot
from playwright.sync_api import expect
from support import found, make_app

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 640}
OUR_WAY = "ten-pennies-our-way"


def post_form(page, button: str) -> None:
    """Press one of the form's buttons (a whole-page post) and wait for the page it answers with."""
    with page.expect_navigation():
        page.click(button)
    settled(page)


def make_our_way(page, base_url) -> None:
    page.goto(f"{base_url}/rulesets/new?from=ten-pennies")
    page.fill("#f-name", "Ten Pennies, our way")
    post_form(page, "button[value=add]")
    expect(page.locator("#round-8")).to_be_visible()
    page.fill("#f-rounds-8-contract-melds", "3")
    page.fill("#f-rounds-8-contract-size", "3")
    page.fill("#f-rounds-8-wild-limit", "1")
    for number in range(5, 9):  # aces never wild
        page.uncheck(f'input[name="rounds[{number}].wilds"][value="A"]')
    page.fill("#f-buys-pennies", "2")
    post_form(page, "button[value=preview]")
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Round 8")
    expect(preview).to_contain_text("3 sets of 3")
    page.locator("#preview").scroll_into_view_if_needed()
    shot(page, "house-rules-preview-360", full_page=False)
    shot(page, "house-rules-form-360")
    post_form(page, "button[value=save]")
    assert page.url.endswith(f"/rulesets/{OUR_WAY}")
    expect(page.locator(".flash")).to_contain_text("Saved: Ten Pennies, our way, version 1")
    shot(page, "house-rules-card-360")


def printed(page, base_url, game_id: int, folder) -> str:
    pdf = folder / f"scorepad-{game_id}.pdf"
    pdf.write_bytes(page.request.get(f"{base_url}/games/{game_id}/scorepad.pdf").body())
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def play(page, base_url, game_id: int) -> dict:
    """Cy buys in round 1 (on the page); Ann goes out every round; Bob is caught with K K, then a 5;
    Cy with JKR 5, then a 3."""
    page.goto(f"{base_url}/games/{game_id}")
    buy_button(page, "Cy").click()
    expect(page.locator(".outcome, .flash").first).to_contain_text("Cy")
    for caught in [{"Bob": "K K", "Cy": "JKR 5"}] + [{"Bob": "5", "Cy": "3"}] * 7:
        answer = page.request.post(f"{base_url}/api/games/{game_id}/rounds", data={"went_out": "Ann", "caught": caught})
        assert answer.status == 201, answer.text()
    return page.request.get(f"{base_url}/api/games/{game_id}").json()


def start(page, base_url) -> int:
    page.goto(f"{base_url}/games/new")
    page.select_option("#ruleset", OUR_WAY)
    for seat, name in enumerate(["Ann", "Bob", "Cy"]):
        page.fill(f"#players-{seat}", name)
    page.select_option("#first_dealer", "0")
    with page.expect_navigation():
        page.locator("button[type=submit]").click()
    return int(found(r"/games/(\d+)$", page.url))


def test_house_rules_made_played_and_changed_without_moving_a_finished_game(browser, base_url, tmp_path):
    context = browser.new_context(viewport=SMALL_PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    make_our_way(page, base_url)
    first = start(page, base_url)
    game = play(page, base_url, first)
    # By hand: Bob 20 + 7 × 5 = 55; Cy 55 + 7 × 5 = 90; the bowl: a buy at 2 pennies and 18 cards caught.
    assert {p["name"]: p["points"] for p in game["players"]} == {"Ann": 0, "Bob": 55, "Cy": 90}
    assert (game["bowl"], game["payouts"], game["ruleset_version"]) == (20, {"Ann": 20}, 1)
    page.goto(f"{base_url}/games/{first}")
    expect(page.locator(".game-over")).to_contain_text("Ann")
    records = page.request.get(f"{base_url}/api/players").json()
    sheet = printed(page, base_url, first, tmp_path)

    page.goto(f"{base_url}/rulesets/{OUR_WAY}/edit")
    page.fill("#f-points-JKR", "25")
    post_form(page, "button[value=save]")
    expect(page.locator(".flash")).to_contain_text("version 2")
    assert page.request.get(f"{base_url}/api/games/{first}").json() == game
    assert page.request.get(f"{base_url}/api/players").json() == records
    assert printed(page, base_url, first, tmp_path) == sheet

    second = start(page, base_url)
    newer = play(page, base_url, second)
    assert newer["ruleset_version"] == 2
    assert {p["name"]: p["points"] for p in newer["players"]} == {"Ann": 0, "Bob": 55, "Cy": 65}

    empty = make_app(tmp_path / "empty")
    for game_id in (first, second):
        export = tmp_path / f"game-{game_id}.json"
        export.write_bytes(page.request.get(f"{base_url}/games/{game_id}/export.json").body())
        result = empty.test_cli_runner().invoke(args=["import", str(export)])
        assert result.exit_code == 0, result.output
    elsewhere = empty.test_client()
    assert elsewhere.get(f"/api/games/{first}").get_json() == game
    assert elsewhere.get(f"/api/games/{second}").get_json() == newer
    context.close()


def test_a_player_asks_their_phone_whether_they_can_go_down(browser, base_url):
    context = browser.new_context(viewport=SMALL_PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    body = {"ruleset": "ten-pennies", "players": ["Ann", "Bob", "Cy", "Di"], "first_dealer": "Ann"}
    game = page.request.post(f"{base_url}/api/games", data=body).json()
    before = page.request.get(f"{base_url}/api/games/{game['id']}/history").json()
    page.goto(f"{base_url}/games/{game['id']}")
    live = page.locator("a[href*='/live/']").first.get_attribute("href")
    page.goto(f"{base_url}{live}" if live.startswith("/") else live)
    settled(page)
    page.select_option('select[name="me"]', "Bob")
    panel = page.locator(".your-round")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Round 1: 2 sets of 3.")
    expect(panel).to_contain_text("you play first")
    expect(panel).to_contain_text("You have 10 buys left: the next takes 3 cards and puts 1 penny in the bowl.")
    panel.locator("summary").click()
    pad = panel.locator(".go-down-form")
    for card in ["7", "7", "7", "9", "9", "2"]:
        pad.locator(f'.tap[data-card="{card}"]').click()
    expect(pad.locator("#go-down-cards")).to_have_value("7 7 7 9 9 2")
    pad.locator(".go-down-ask").click()
    answer = pad.locator(".go-down-answer")
    expect(answer).to_contain_text("Yes: you can go down.")
    expect(answer).to_contain_text("9 9 2: set of 3 × 9 with 1 wild")
    answer.scroll_into_view_if_needed()
    shot(page, "can-i-go-down-yes-360", full_page=False)
    pad.locator('[data-action="back"]').click()
    pad.locator(".go-down-ask").click()
    expect(answer).to_contain_text("Not yet: you need 1 more set of 3: 9 9 and one more 9 or a wild would do.")
    shot(page, "can-i-go-down-not-yet-360", full_page=False)
    # Cards with their suits are named to a screen reader (issue 60: "K black diamond suit").
    pad.locator("#go-down-cards").fill("7S 7H 7D 9C 9D 2H")
    pad.locator(".go-down-ask").click()
    expect(answer.get_by_text("seven of hearts", exact=True)).to_have_count(1)
    expect(answer.locator('[aria-hidden="true"]', has_text="7♥")).to_have_count(1)
    after = page.request.get(f"{base_url}/api/games/{game['id']}").json()
    assert after["version"] == game["version"]
    assert page.request.get(f"{base_url}/api/games/{game['id']}/history").json() == before
    context.close()
