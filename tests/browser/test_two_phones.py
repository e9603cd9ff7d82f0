"""Two phones, one game (issue 26): phone A enters a round while phone B buys, or saves the same round
first. A's refusal is seen and stays, what A typed is kept, and one more tap saves it (or corrects
the round the other phone saved); every entry is recorded once, read back from the API."""

from __future__ import annotations

import re

import pytest
from browser_support import (
    DOUBLE_TAP_MS,
    PHONE,
    answered,
    buy_button,
    centre,
    come_to_rest,
    double_tap,
    settled,
    shot,
    tap_screen,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

NAMES = ["Ann", "Bob", "Cy", "Di"]


@pytest.fixture
def second_phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    yield context.new_page()
    context.close()


@pytest.fixture(params=[320, 360, 390], ids=lambda width: f"{width}px")
def two_phones(browser, request):
    """Phones A and B side by side at a width of the table's phones: 320, 360 and 390 px."""
    viewport = {"width": request.param, "height": 740}
    contexts = [
        browser.new_context(viewport=viewport, device_scale_factor=2, is_mobile=True, has_touch=True) for _ in range(2)
    ]
    yield tuple(context.new_page() for context in contexts)
    for context in contexts:
        context.close()


def start(page, base_url) -> int:
    answer = page.request.post(
        f"{base_url}/api/games", data={"ruleset": "ten-pennies", "players": NAMES, "first_dealer": "Ann"}
    )
    assert answer.ok
    return answer.json()["id"]


def tap_round(page, went_out: str, hands: dict[str, list[str]]) -> None:
    page.locator(f'.went-out label:has-text("{went_out}")').tap()
    for name, cards in hands.items():
        page.locator(f'.hand-row[data-player="{name}"] .hand-name').tap()
        for card in cards:
            page.locator(f'.tap[data-card="{card}"]').tap()


def state(page, base_url, gid):
    return page.request.get(f"{base_url}/api/games/{gid}").json()


def test_a_buy_on_another_phone_while_a_round_is_entered_is_said_and_one_more_tap_saves(two_phones, base_url):
    phone, second_phone = two_phones
    gid = start(phone, base_url)
    phone.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(phone)
    tap_round(phone, "Ann", {"Bob": ["K"], "Di": ["5"]})
    # Phone B: Cy buys, on the game page.
    second_phone.goto(f"{base_url}/games/{gid}")
    settled(second_phone)
    second_phone.wait_for_timeout(1000)  # the page's guard against a double tap lets go after 0.9 s
    with answered(second_phone):
        buy_button(second_phone, "Cy").tap()
    assert state(phone, base_url, gid)["players"][2]["buys_left"] == 9
    with phone.expect_navigation():
        phone.locator("button.save").tap()
    settled(phone)
    alert = phone.locator(".flash-error.standing[role=alert]")
    phone.wait_for_timeout(800)  # the live preview has run: the server's reason is still there
    assert alert.is_visible() and "Not saved yet: the game changed on another phone" in alert.inner_text()
    expect(alert).to_be_in_viewport()  # in sight, not above a page opened scrolled down
    assert "Cy" in alert.inner_text()
    assert phone.locator('.hand-row[data-player="Bob"] input').input_value() == "K"
    assert phone.locator('.hand-row[data-player="Di"] input').input_value() == "5"
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, f"two-phones-buy-meanwhile-{phone.viewport_size['width']}", full_page=False)
    with phone.expect_navigation():
        phone.locator("button.save").tap()
    settled(phone)
    game = state(phone, base_url, gid)
    assert len(game["rounds"]) == 1 and game["rounds"][0]["results"]["Bob"]["cards"] == ["K"]
    assert game["rounds"][0]["buys"]["Cy"] == 1


def test_the_same_round_on_two_phones_offers_the_correction_with_these_hands(two_phones, base_url):
    phone, second_phone = two_phones
    gid = start(phone, base_url)
    for page in (phone, second_phone):
        page.goto(f"{base_url}/games/{gid}/rounds/new")
        settled(page)
    tap_round(second_phone, "Ann", {"Bob": ["K"], "Cy": ["5"]})
    with second_phone.expect_navigation():
        second_phone.locator("button.save").tap()
    tap_round(phone, "Ann", {"Bob": ["Q"], "Di": ["7"]})
    with phone.expect_navigation():
        phone.locator("button.save").tap()
    settled(phone)
    phone.wait_for_timeout(800)
    alert = phone.locator(".flash-error.standing[role=alert]")
    assert alert.is_visible() and "Round 1 was saved on another phone" in alert.inner_text()
    expect(alert).to_be_in_viewport()
    assert "Enter round 2" not in phone.inner_text("main")
    assert phone.locator("h1").inner_text() == "Correct round 1"
    assert phone.locator('.hand-row[data-player="Bob"] .saved-other').inner_text() == "saved: K"
    assert phone.locator('.hand-row[data-player="Bob"] input').input_value() == "Q"
    save = phone.locator("button.save")
    assert save.inner_text() == "Correct round 1 with these hands"
    shot(phone, f"two-phones-same-round-{phone.viewport_size['width']}")
    assert len(state(phone, base_url, gid)["rounds"]) == 1
    with phone.expect_navigation():
        save.tap()
    settled(phone)
    game = state(phone, base_url, gid)
    assert len(game["rounds"]) == 1
    assert re.fullmatch(r"Q", " ".join(game["rounds"][0]["results"]["Bob"]["cards"]))
    assert game["rounds"][0]["results"]["Di"]["cards"] == ["7"]


GAPS_MS = [100, 400, 700]


@pytest.mark.parametrize("width", [320, 360, 390])
def test_a_buy_tapped_again_never_lands_on_another_control(browser, base_url, width):
    """A double tap (100–700 ms) records one buy; a "did it register?" re-tap once the page is back
    records a second buy for the same player — never a buy for the player one row up, never another
    button: the confirmation and its Undo take space kept for them, so nothing moves under the thumb."""
    context = browser.new_context(viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    gid = start(page, base_url)
    game_url = f"{base_url}/games/{gid}"
    page.goto(game_url)
    settled(page)
    first = buy_button(page, "Ann")
    with answered(page):
        first.tap()  # no wait: the first tap on a page someone is reading counts at once
    expected = {"Ann": 1, "Bob": 0, "Cy": 0, "Di": 0}
    assert buys(page, base_url, gid) == expected
    for seat, name in enumerate(NAMES):
        gap = GAPS_MS[(seat + width) % len(GAPS_MS)]
        button = buy_button(page, name)
        come_to_rest(page)
        page.wait_for_timeout(1000)  # the last buy's page has been read a moment
        x, y = centre(button)
        apart = double_tap(page, button, gap)
        expected[name] += 1
        now = buys(page, base_url, gid)
        if apart >= DOUBLE_TAP_MS:  # the machine was too slow to tap twice within the hold: two taps
            assert now[name] - expected[name] in (0, 1), f"{name} tapped twice {apart:.0f} ms apart"
            expected[name] = now[name]
        assert now == expected, f"{name} tapped twice {gap} ms apart ({apart:.0f} ms at most) at {width} px"
        shows_buys(page, name, expected[name])
        assert_in_place(page, name, (x, y))
        tap_screen(page, x, y)  # "did it register?": the same spot once the page is back
        expected[name] += 1
        # The page's answer to that tap (its count under the button), not a time: a fresh run under
        # load read the server 300 ms after the tap, before the buy had been sent.
        shows_buys(page, name, expected[name])
        come_to_rest(page)  # and drawn to the end: a CI run read the spot with the count drawn, 99 px off
        assert buys(page, base_url, gid) == expected, f"{name} tapped again once the page was back, at {width} px"
        assert_in_place(page, name, (x, y))
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"two-phones-buys-{width}", full_page=False)
    context.close()


def shows_buys(page, name: str, bought: int) -> None:
    """The page drawn from the server's answer to the last tap (its count under the button), with
    nothing left waiting in the outbox: where the button rests is asked of the page the thumb comes
    back to. Fresh-clone CI runs under load read the spot while that page was still on its way (moved
    99 px), and with the count drawn but a "Not yet saved" note still standing (moved 220 px at 320 px)."""
    expect(buy_button(page, name).locator(".buy-meta")).to_contain_text(re.compile(rf"^{10 - bought} left"))
    expect(page.locator(".outbox-note")).to_be_hidden()
    expect(page.locator(".not-saved-note:visible")).to_have_count(0)


BACK_IN_PLACE = """([name, x, y]) => {
  const button = document.querySelector(`button.buy[data-player="${CSS.escape(name)}"]`);
  if (!button) return false;
  const box = button.getBoundingClientRect();
  return Math.abs(box.x + box.width / 2 - x) < 0.5 && Math.abs(box.y + box.height / 2 - y) < 0.5;
}"""


def assert_in_place(page, name: str, spot: tuple[float, float]) -> None:
    """The button back where the thumb left it, once the page is at rest: waited for (5 s at most) as a
    state the page shows, not read at one instant, for a fresh-clone run beside other work read it 220 px
    lower at 320 px with the count drawn and the outbox empty; a button that stays moved still fails."""
    try:
        page.wait_for_function(BACK_IN_PLACE, arg=[name, *spot], timeout=5000)
    except PlaywrightTimeoutError:
        pass  # said below, with where the button is
    after = buy_button(page, name).bounding_box()
    assert after is not None, f"no buy button for {name} on {page.url}"
    centre_after = (after["x"] + after["width"] / 2, after["y"] + after["height"] / 2)
    assert (round(centre_after[0]), round(centre_after[1])) == (round(spot[0]), round(spot[1])), "the page moved"


def buys(page, base_url, gid):
    return {p["name"]: 10 - p["buys_left"] for p in state(page, base_url, gid)["players"]}


def test_a_round_being_entered_survives_the_meld_checker_and_back(phone, base_url):
    """Issue 26: "Check melds" in the middle of entering a round, then Back: what was typed is there;
    saved, the draft is gone; a draft can be discarded."""
    gid = start(phone, base_url)
    phone.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(phone)
    tap_round(phone, "Ann", {"Bob": ["K", "7"]})
    with phone.expect_navigation():
        phone.locator("header a", has_text="Check melds").tap()
    settled(phone)
    phone.go_back()
    settled(phone)
    phone.wait_for_timeout(500)
    expect(phone.locator(".draft-note")).to_contain_text("Restored what you were entering")
    assert phone.locator('.hand-row[data-player="Bob"] input').input_value() == "K 7"
    assert phone.locator('input[name="went_out"][value="Ann"]').is_checked()
    assert phone.evaluate("document.activeElement.tagName") != "INPUT"  # no keyboard over the pad
    shot(phone, "two-phones-draft-restored", full_page=False)
    phone.locator('.hand-row[data-player="Cy"] .hand-name').tap()
    assert phone.evaluate("document.activeElement.tagName") != "INPUT"  # Cy's name tapped: no keyboard
    assert "active" in phone.locator('.hand-row[data-player="Cy"]').get_attribute("class").split()
    phone.locator('.tap[data-card="5"]').tap()
    phone.wait_for_timeout(1000)
    with phone.expect_navigation():
        phone.locator("button.pad-save").tap()  # Save in the pad's bar: no scroll needed
    settled(phone)
    game = state(phone, base_url, gid)
    assert len(game["rounds"]) == 1 and game["rounds"][0]["results"]["Bob"]["cards"] == ["K", "7"]
    phone.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(phone)
    assert phone.locator(".draft-note").count() == 0  # round 1 saved: nothing restored into round 2
    tap_round(phone, "Bob", {"Ann": ["Q"]})
    phone.goto(f"{base_url}/games/{gid}")
    phone.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(phone)
    expect(phone.locator(".draft-note")).to_be_visible()
    phone.locator(".draft-note button", has_text="Discard it").tap()
    assert phone.locator('.hand-row[data-player="Ann"] input').input_value() == ""
    phone.reload()
    settled(phone)
    assert phone.locator(".draft-note").count() == 0


@pytest.mark.parametrize("size", [(320, 568), (360, 640)])
def test_a_whole_round_at_320_px_without_scrolling_sideways_or_to_save(browser, base_url, size):
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
    page = context.new_page()
    gid = start(page, base_url)
    page.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(page)
    page.locator('.went-out label:has-text("Ann")').tap()
    for cards in (["K", "7"], ["5"], ["JKR"]):  # Bob, Cy, Di: the pad's Next moves down the lines
        for card in cards:
            page.locator(f'.tap[data-card="{card}"]').tap()
        page.locator('.tap[data-action="next"]').tap()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    save = page.locator("button.pad-save")
    expect(save).to_be_in_viewport()
    shot(page, f"two-phones-round-at-{width}", full_page=False)
    with page.expect_navigation():
        save.tap()
    game = state(page, base_url, gid)
    assert [game["rounds"][0]["results"][name]["cards"] for name in ("Bob", "Cy", "Di")] == [["K", "7"], ["5"], ["JKR"]]
    context.close()


def test_a_correction_on_another_phone_while_a_round_is_entered(two_phones, base_url):
    phone, second_phone = two_phones
    gid = start(phone, base_url)
    first = {"went_out": "Ann", "caught": {"Bob": "K", "Cy": "", "Di": "5"}}
    assert phone.request.post(f"{base_url}/api/games/{gid}/rounds", data=first).ok
    phone.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(phone)
    tap_round(phone, "Bob", {"Ann": ["Q"], "Cy": ["3"]})
    # Phone B corrects round 1 (Di had 5 5) while phone A enters round 2.
    fix = {"went_out": "Ann", "caught": {"Bob": "K", "Cy": "", "Di": "5 5"}}
    assert second_phone.request.put(f"{base_url}/api/games/{gid}/rounds/1", data=fix).ok
    phone.wait_for_timeout(1000)
    with phone.expect_navigation():
        phone.locator("button.pad-save").tap()
    settled(phone)
    alert = phone.locator(".flash-error.standing[role=alert]")
    expect(alert).to_be_in_viewport()
    assert "Round 1 corrected: Ann went out" in alert.inner_text()  # the change, in table words
    assert phone.locator("h1").inner_text() == "Enter round 2"
    assert phone.locator('.hand-row[data-player="Ann"] input').input_value() == "Q"
    shot(phone, f"two-phones-correction-meanwhile-{phone.viewport_size['width']}", full_page=False)
    phone.wait_for_timeout(1000)
    with phone.expect_navigation():
        phone.locator("button.pad-save").tap()
    game = state(phone, base_url, gid)
    assert len(game["rounds"]) == 2
    assert game["rounds"][0]["results"]["Di"]["cards"] == ["5", "5"]
    assert game["rounds"][1]["results"]["Ann"]["cards"] == ["Q"]


def test_check_melds_takes_the_hand_typed_so_far(phone, base_url):
    """Issue 26: "the meld checker can take the hand typed so far": the line being filled is the
    question "Does this hand make the contract?", answered on arrival; Back finds the round as typed."""
    gid = start(phone, base_url)
    phone.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(phone)
    tap_round(phone, "Ann", {"Bob": ["K", "7"], "Cy": ["9", "9", "9", "4", "4", "4"]})
    with phone.expect_navigation():
        phone.locator("header a", has_text="Check melds").tap()
    settled(phone)
    assert phone.locator('input[name="melds-0"]').input_value() == "9 9 9 4 4 4"  # Cy's line, the one chosen
    assert phone.locator('select[name="stage"]').input_value() == "hand"
    expect(phone.locator(".verdict")).to_contain_text("Makes the contract")  # round 1: two sets of three
    shot(phone, "two-phones-checker-takes-the-hand", full_page=False)
    phone.go_back()
    settled(phone)
    assert phone.locator('.hand-row[data-player="Cy"] input').input_value() == "9 9 9 4 4 4"


def test_a_pennies_from_heaven_hand_survives_leaving_and_saves_from_the_pad(phone, base_url):
    """Drafts survive for a hand by sides too (steppers, points, cards), and Save is in the pad's bar."""
    body = {"ruleset": "pennies-from-heaven", "players": ["Ann", "Bob"], "first_dealer": "Ann"}
    gid = phone.request.post(f"{base_url}/api/games", data=body).json()["id"]
    phone.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(phone)
    phone.locator('.went-out label:has-text("Ann")').tap()
    ann = phone.locator('fieldset.side[data-side="Ann"]')
    for label in ("Red 3s", "Natural (red) books", "Books of sevens", "Wild books"):  # going out needs all three books
        ann.locator(f'button[aria-label$="one more ({label})"]').tap()
    ann.locator('[data-points="melded"]').fill("150")
    bob = phone.locator('fieldset.side[data-side="Bob"]')
    bob.locator('[data-points="melded"]').fill("60")  # on the board (50): no pile to count
    bob.locator('.hand-row[data-role="hand"][data-player="Bob"] .hand-name').tap()
    phone.locator('.tap[data-card="K"]').tap()
    phone.goto(f"{base_url}/games/{gid}")  # away (the game page), and back
    phone.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(phone)
    expect(phone.locator(".draft-note")).to_contain_text("Restored what you were entering")
    assert [ann.locator(f'[data-count="{count}"]').input_value() for count in ("red_threes", "sevens")] == ["1", "1"]
    assert ann.locator('[data-points="melded"]').input_value() == "150"
    assert bob.locator('[data-cards="hand"][data-player="Bob"]').input_value() == "K"
    assert phone.locator('input[name="went_out"][value="Ann"]').is_checked()
    # Ann: 100 out + 100 red three + 500 natural + 1500 sevens + 1500 wild + 150 melded = +3850.
    expect(ann.locator(".side-live")).to_have_text("This hand +3850 · game total 3850", timeout=5000)
    expect(bob.locator(".side-live")).to_have_text("This hand +50 · game total 50")  # 60 melded − K 10
    bob.locator('.hand-row[data-role="hand"][data-player="Bob"] .hand-name').tap()
    save = phone.locator("button.pad-save")
    expect(save).to_be_in_viewport()
    with phone.expect_navigation():
        save.tap()
    settled(phone)
    shot(phone, "pfh-after-pad-save")
    game = state(phone, base_url, gid)
    assert len(game["rounds"]) == 1 and [s["points"] for s in game["sides"]] == [3850, 50]
    phone.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(phone)
    assert phone.locator(".draft-note").count() == 0  # saved: nothing comes back into hand 2
