"""The user's guide's pictures (docs/guide.md, and the README's two), taken on a phone-sized screen by
walking through an evening as the guide tells it: made again by every run, never kept by hand. Each
step also checks that the screen shows what the guide says it shows."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from browser_support import buy_button, settled
from playwright.sync_api import expect
from support import found

pytestmark = pytest.mark.browser

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
PHONE_SMALL = {"width": 360, "height": 640}
TABLET = {"width": 820, "height": 1180}


def picture(page, name: str, full_page: bool = False) -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IMAGES / f"{name}.png"), full_page=full_page)


def go(page, url: str) -> None:
    page.goto(url)
    settled(page)


@pytest.fixture
def phones(browser):
    def context(viewport):
        return browser.new_context(viewport=viewport, device_scale_factor=1, is_mobile=True, has_touch=True)

    made = [context(PHONE_SMALL), context(PHONE_SMALL), context(TABLET)]
    yield tuple(c.new_page() for c in made)
    for c in made:
        c.close()


def rounds_by_api(page, base_url: str, game_id: int, count: int) -> None:
    for _ in range(count):
        caught = {"Bob": "K 7", "Cy": "5 5 5", "Di": ""}
        answer = page.request.post(f"{base_url}/api/games/{game_id}/rounds", data={"went_out": "Ann", "caught": caught})
        assert answer.status == 201, answer.text()


def test_the_guide_s_pictures_are_taken_along_an_evening(phones, base_url, tmp_path):
    page, player, tablet = phones
    go(page, f"{base_url}/nights")
    page.fill("#name", "Grandma's birthday")
    page.check('input[name="money"][value="paper"]')
    picture(page, "night-start")
    with page.expect_navigation():
        page.click("button:has-text('Start a new night')")

    go(page, f"{base_url}/games/new")
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        page.fill(f"#players-{seat}", name)
    page.select_option("#first_dealer", "0")
    picture(page, "new-game")
    with page.expect_navigation():
        page.locator("button[type=submit]").click()
    game_id = int(found(r"/games/(\d+)$", page.url))

    rounds_by_api(page, base_url, game_id, 2)
    go(page, f"{base_url}/games/{game_id}")
    buy_button(page, "Bob").click()
    expect(page.locator(".outcome").first).to_contain_text("Bob")
    go(page, f"{base_url}/games/{game_id}")
    expect(page.locator("a:has-text('Enter round 3')")).to_be_visible()
    picture(page, "game-phone")

    page.click("a:has-text('Enter round 3')")
    page.wait_for_selector(".tap-pad")
    page.click('.went-out label:has-text("Ann")')
    page.click('.hand-row[data-player="Bob"] .hand-name')
    for card in ["K", "7", "2"]:
        page.click(f'.tap[data-card="{card}"]')
    # The picture shows the points the form works out as cards are tapped (K 10 + 7 5 + a wild 2 20).
    expect(page.locator('.hand-row[data-player="Bob"] .live')).to_have_text("35 pts · 3 p")
    picture(page, "round-form")
    with page.expect_navigation():
        page.click("button.save")

    live = page.locator("a[href*='/live/']").first.get_attribute("href")
    go(player, live if live.startswith("http") else f"{base_url}{live}")
    player.select_option('select[name="me"]', "Cy")
    panel = player.locator(".your-round")
    expect(panel).to_contain_text("Round 4: 1 set of 5.")
    panel.locator("summary").click()
    for card in ["9", "9", "9", "2", "K"]:
        panel.locator(f'.tap[data-card="{card}"]').click()
    panel.locator(".go-down-ask").click()
    expect(panel.locator(".go-down-answer")).to_contain_text("Not yet: you need 1 more set of 5")
    panel.locator(".go-down-answer").scroll_into_view_if_needed()
    picture(player, "live-phone")

    go(page, f"{base_url}/games/{game_id}/rounds/1/edit")
    expect(page.locator("h1")).to_contain_text("round 1")
    picture(page, "correction")

    rounds_by_api(page, base_url, game_id, 4)
    night_id = page.request.get(f"{base_url}/api/games/{game_id}").json().get("night") or 1
    go(page, f"{base_url}/nights/{night_id}")
    page.locator(".settle").first.scroll_into_view_if_needed()
    expect(page.locator(".settle").first).to_contain_text("pays")
    picture(page, "night-paper")

    go(page, f"{base_url}/rulesets/new?from=ten-pennies")
    page.locator("#rounds").scroll_into_view_if_needed()
    picture(page, "house-rules")

    pdf = tmp_path / "scorepad.pdf"
    pdf.write_bytes(page.request.get(f"{base_url}/games/{game_id}/scorepad.pdf").body())
    out = tmp_path / "scorepad"
    subprocess.run(["pdftoppm", "-r", "45", "-png", "-singlefile", str(pdf), str(out)], check=True)
    IMAGES.mkdir(parents=True, exist_ok=True)
    (IMAGES / "scorepad-pdf.png").write_bytes(out.with_suffix(".png").read_bytes())

    go(page, f"{base_url}/players/1")
    expect(page.locator("h1")).to_contain_text("Ann")
    picture(page, "player-record")

    second = page.request.post(
        f"{base_url}/api/games", data={"ruleset": "ten-pennies", "players": ["Ann", "Bob", "Cy", "Di"]}
    ).json()["id"]
    rounds_by_api(page, base_url, second, 2)
    go(tablet, f"{base_url}/games/{second}/table")
    picture(tablet, "table-view")
