"""Screens that stay on (issue 27) where the phones really are: on the home network the app is plain
http://<name>:5000, an insecure context without the Wake Lock API. Chromium is pointed at a test name
that resolves to 127.0.0.1 (--host-resolver-rules), which it treats exactly like such an address."""

from __future__ import annotations

import pytest
from browser_support import PHONE, served_on_a_name, settled, shot
from playwright.sync_api import expect

HOST = "scorekeeper-table.test"
LANDSCAPE = {"width": 844, "height": 390}


@pytest.fixture(scope="module")
def home_network(tmp_path_factory, browser):
    """The app served for the table, reached by a name on the home network (listed in the instance's
    trusted hosts, as `scorekeeper serve --network` or instance/config.py does)."""
    with served_on_a_name(tmp_path_factory.mktemp("home-network"), browser, HOST) as served:
        yield served


def video_in_view(page) -> dict:
    """What Chromium asks of a playing video before it keeps the screen on: mostly in view, and big."""
    return page.evaluate(
        """() => new Promise((resolve) => {
            const video = document.querySelector("video.screen-on-video");
            new IntersectionObserver(([entry]) => resolve({
                ratio: entry.intersectionRatio,
                share: entry.intersectionRect.width * entry.intersectionRect.height / (innerWidth * innerHeight),
                paused: video.paused, muted: video.muted, time: video.currentTime,
            })).observe(video);
        })"""
    )


def test_the_table_view_keeps_the_screen_on_over_plain_http_after_one_tap(home_network, browser):
    chromium, base, local = home_network
    context = chromium.new_context(viewport=LANDSCAPE, is_mobile=True, has_touch=True)
    page = context.new_page()
    # The game is started through the loopback address (Playwright's own requests do not go through
    # Chromium's resolver); the phone then opens it by its home-network name.
    answer = page.request.post(
        f"{local}/api/games", data={"ruleset": "ten-pennies", "players": ["Ann", "Bob", "Cy"], "first_dealer": "Ann"}
    )
    assert answer.status == 201, answer.text()
    page.goto(f"{base}/games/{answer.json()['id']}/table")
    settled(page)
    assert page.evaluate("isSecureContext") is False  # as on http://192.168.x.x
    assert page.evaluate("'wakeLock' in navigator") is False
    switch = page.locator("button.screen-on")
    page.wait_for_timeout(500)
    if switch.get_attribute("aria-pressed") != "true":  # a browser that wants a tap before any video
        switch.tap()
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(switch).to_have_text("Screen stays on · silent video")
    first = video_in_view(page)
    page.wait_for_timeout(1500)
    later = video_in_view(page)
    assert not later["paused"] and later["muted"]  # muted: never takes the phone's music away
    assert later["time"] != first["time"]  # playing, looping
    assert later["ratio"] > 0.75 and later["share"] > 0.2  # Chromium's video_wake_lock.cc thresholds
    shot(page, "screen-on-over-http-landscape", full_page=False)
    # Nothing under the thumb changed: the video takes no tap meant for the page.
    assert page.evaluate("getComputedStyle(document.querySelector('video.screen-on-video')).pointerEvents") == "none"
    switch.tap()  # and off again: the phone remembers it, so the next page leaves the screen alone
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("document.querySelector('video.screen-on-video').paused") is True
    page.reload()
    settled(page)
    page.wait_for_timeout(500)
    expect(switch).to_have_text("Keep this screen on")
    assert page.locator("video.screen-on-video").count() == 0
    switch.tap()  # one tap: on again
    expect(switch).to_have_text("Screen stays on · silent video")
    assert video_in_view(page)["paused"] is False
    context.close()


def test_where_the_wake_lock_exists_it_is_used(browser, base_url):
    """On localhost (a secure context) the Wake Lock API exists: the switch says so and no video plays."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    answer = page.request.post(
        f"{base_url}/api/games", data={"ruleset": "ten-pennies", "players": ["Ann", "Bob"], "first_dealer": "Ann"}
    )
    page.goto(f"{base_url}/games/{answer.json()['id']}/table")
    settled(page)
    assert page.evaluate("isSecureContext && 'wakeLock' in navigator") is True
    switch = page.locator("button.screen-on")
    if switch.get_attribute("aria-pressed") != "true":
        switch.tap()
    expect(switch).to_have_text("Screen stays on · Wake Lock")
    assert page.locator("video.screen-on-video").count() == 0
    context.close()


EIGHT = ["Ann", "Bob", "Cy", "Di", "Eve", "Fran", "Gus", "Hal"]


def test_eight_players_fit_a_phone_on_its_side_and_the_end_says_what_each_winner_takes(browser, base_url):
    """Issue 27: all eight players in sight on a phone in landscape (844×390), with the round's card;
    at game over, who won and what each winner takes, and what stays in the bowl."""
    context = browser.new_context(viewport=LANDSCAPE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    body = {"ruleset": "ten-pennies", "players": EIGHT, "first_dealer": "Ann"}
    gid = page.request.post(f"{base_url}/api/games", data=body).json()["id"]
    page.goto(f"{base_url}/games/{gid}/table")
    settled(page)
    rows = page.locator(".tv-row")
    assert rows.count() == 8
    for i in range(8):
        box = rows.nth(i).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= LANDSCAPE["height"], f"row {i + 1} out of sight"
    assert page.evaluate("document.documentElement.scrollWidth") <= LANDSCAPE["width"]
    expect(page.locator(".tv-contract")).to_be_in_viewport()
    shot(page, "table-view-eight-landscape", full_page=False)
    # Ann and Bob go out in turn and tie on 0; the six others are caught with a 5 each round:
    # 7 rounds × 6 pennies = 42 pennies in the bowl, 21 each, nothing left over.
    for number in range(7):
        out, other = ("Ann", "Bob") if number % 2 == 0 else ("Bob", "Ann")
        caught = {other: "", **{name: "5" for name in EIGHT[2:]}}
        answer = page.request.post(f"{base_url}/api/games/{gid}/rounds", data={"went_out": out, "caught": caught})
        assert answer.status == 201, answer.text()
    page.wait_for_timeout(2500)  # the view follows by itself
    expect(page.locator(".tv-contract")).to_have_text("Winners: Ann and Bob")
    takes = page.locator(".tv-takes li")
    expect(takes).to_have_count(2)
    said = [takes.nth(i).inner_text() for i in range(2)]
    assert said == ["Ann takes 21 pennies ($0.21)", "Bob takes 21 pennies ($0.21)"]
    for i in range(8):
        box = rows.nth(i).bounding_box()
        assert box["y"] + box["height"] <= LANDSCAPE["height"]
    shot(page, "table-view-eight-landscape-game-over", full_page=False)
    context.close()


def test_players_enter_their_own_hands_and_the_scorekeeper_saves_in_two_taps(browser, base_url):
    """Issue 27: eight players; Bob taps his own cards on his phone's live view, the six others send
    theirs (as their phones do, through the same API); the scorekeeper's open round form shows each
    draft as it arrives, marked as from that phone; who went out and Save: two taps."""
    scorekeeper = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    bob = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    keeper_page, bob_page = scorekeeper.new_page(), bob.new_page()
    gid = keeper_page.request.post(
        f"{base_url}/api/games", data={"ruleset": "ten-pennies", "players": EIGHT, "first_dealer": "Ann"}
    ).json()["id"]
    keeper_page.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(keeper_page)
    game_page = keeper_page.request.get(f"{base_url}/games/{gid}").text()
    token = game_page.split("/live/")[1].split('"')[0]
    bob_page.goto(f"{base_url}/live/{token}")
    settled(bob_page)
    bob_page.select_option('.my-hand select[name="me"]', "Bob")
    expect(bob_page.locator("#my-cards")).not_to_be_visible()  # the live view opens on the standings
    bob_page.locator(".my-hand-fold summary").click()  # the round has ended: Bob opens his pad
    for card in ("K", "7"):
        bob_page.locator(f'.my-hand .tap[data-card="{card}"]').tap()
    expect(bob_page.locator(".my-hand-status")).to_have_text(
        "Sent to the scorekeeper for round 1: 15 points · 2 pennies."
    )
    shot(bob_page, "players-own-hand-on-bobs-phone", full_page=False)
    others = {"Cy": "5", "Di": "", "Eve": "JKR", "Fran": "2 2", "Gus": "10", "Hal": ""}
    for name, cards in others.items():
        answer = keeper_page.request.put(f"{base_url}/api/games/{gid}/rounds/1/drafts/{name}", data={"cards": cards})
        assert answer.ok, answer.text()
    bob_row = keeper_page.locator('.hand-row[data-player="Bob"]')
    expect(bob_row.locator("input")).to_have_value("K 7", timeout=3000)
    expect(bob_row.locator(".from-phone")).to_have_text("from Bob's phone · 15 pts")
    for name in ("Eve", "Fran", "Gus"):  # the drafts sent last, which a poll may take in two goes
        expect(keeper_page.locator(f'.hand-row[data-player="{name}"] input')).to_have_value(others[name], timeout=5000)
    shot(keeper_page, "players-own-hands-on-the-round-form")
    before = keeper_page.request.get(f"{base_url}/api/games/{gid}").json()["version"]
    assert before == 0  # drafts moved nothing
    keeper_page.locator('.went-out label:has-text("Ann")').tap()  # tap 1
    keeper_page.wait_for_timeout(400)
    with keeper_page.expect_navigation():
        keeper_page.locator("button.pad-save").tap()  # tap 2
    game = keeper_page.request.get(f"{base_url}/api/games/{gid}").json()
    assert len(game["rounds"]) == 1
    saved = {name: " ".join(result["cards"]) for name, result in game["rounds"][0]["results"].items() if name != "Ann"}
    assert saved == {"Bob": "K 7", **others}
    # Bob's phone follows: round 1 is saved; his hand stays in sight for round 1 until he goes on (issue
    # 58: a card tapped just then is never filed in round 2), and one tap clears his box for round 2.
    expect(bob_page.locator(".my-hand-status")).to_have_text(
        "Round 1 is saved: your line on the scorepad shows what counted.", timeout=5000
    )
    assert bob_page.locator("#my-cards").input_value() == "K 7"
    bob_page.get_by_role("button", name="Clear: go on to round 2").tap()
    expect(bob_page.locator(".my-hand-status")).to_have_text("Round 2: tap the cards you are caught with when it ends.")
    assert bob_page.locator("#my-cards").input_value() == ""
    scorekeeper.close()
    bob.close()


def test_a_pennies_from_heaven_player_sends_the_points_left_in_hand(phone, base_url):
    body = {"ruleset": "pennies-from-heaven", "players": ["Ann", "Bob"], "first_dealer": "Ann"}
    gid = phone.request.post(f"{base_url}/api/games", data=body).json()["id"]
    answer = phone.request.put(f"{base_url}/api/games/{gid}/rounds/1/drafts/Bob", data={"points": 35})
    assert answer.ok, answer.text()
    phone.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(phone)
    box = phone.locator('[data-points="hand"][data-player="Bob"]')
    expect(box).to_have_value("35", timeout=3000)
    assert box.get_attribute("title") == "from Bob's phone"
    # Bob's side: −35 for what he holds (nothing melded yet, on no board), as the preview says.
    expect(phone.locator('fieldset.side[data-side="Bob"] .side-live')).to_contain_text("−35", timeout=5000)
