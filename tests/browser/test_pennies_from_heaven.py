"""A hand of Pennies From Heaven entered on a phone as the table counts it: steppers for red threes
and books, points for melds, hands and piles, and each side's total before Save."""

from __future__ import annotations

import re

from browser_support import PHONE, settled, shot
from playwright.sync_api import expect

TEAMS = [["Ann", "Cy"], ["Bob", "Di"]]


def side(page, name: str):
    return page.locator(f'fieldset.side[data-side="{name}"]')


def new_hand_form(browser, base_url):
    """A phone's browser on the first hand's form of a new game, Ann & Cy against Bob & Di."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    body = {"ruleset": "pennies-from-heaven", "players": ["Ann", "Bob", "Cy", "Di"], "teams": TEAMS}
    gid = page.request.post(f"{base_url}/api/games", data=body).json()["id"]
    page.goto(f"{base_url}/games/{gid}/rounds/new")
    settled(page)
    return context, page


def step_up(fieldset, label: str, times: int = 1) -> None:
    """Tap a stepper's +, each tap once its count shows the one before: the side's total is drawn
    again after every step, and a tap made while it moves the buttons could land beside them (a CI
    run lost one: 2940 for 4440)."""
    button = fieldset.locator(f'button[aria-label$="one more ({label})"]')
    count = button.locator(
        "xpath=ancestor::*[contains(concat(' ', normalize-space(@class), ' '), ' stepper ')][1]//input"
    )
    for _ in range(times):
        before = int(count.input_value() or "0")
        button.tap()
        expect(count).to_have_value(str(before + 1))


def test_a_hand_entered_with_pile_points_shows_each_side_total_before_save(browser, base_url):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    body = {
        "ruleset": "pennies-from-heaven",
        "players": ["Ann", "Bob", "Cy", "Di"],
        "teams": TEAMS,
        "first_dealer": "Ann",
    }
    answer = page.request.post(f"{base_url}/api/games", data=body)
    assert answer.status == 201
    game_url = f"{base_url}/games/{answer.json()['id']}"
    page.goto(game_url)
    page.locator("a:has-text('Enter hand 1')").tap()
    settled(page)
    assert page.locator(".tap-pad").is_hidden()  # a form of number boxes: no card pad until a card line

    page.locator('.went-out label:has-text("Ann")').tap()
    ann_cy, bob_di = side(page, "Ann & Cy"), side(page, "Bob & Di")
    # Ann & Cy go out: 100 + 2 red threes 200 + natural 500 + sevens 1500 + wild 1500 + 640 melded = 4440.
    step_up(ann_cy, "Red 3s", 2)
    step_up(ann_cy, "Natural (red) books")
    step_up(ann_cy, "Books of sevens")
    step_up(ann_cy, "Wild books")
    assert ann_cy.locator('[data-count="red_threes"]').input_value() == "2"
    ann_cy.locator('[data-points="melded"]').fill("640")
    expect(ann_cy.locator(".side-live")).to_have_text("This hand +4440 · game total 4440", timeout=5000)
    assert page.locator(".tap-pad").is_hidden()

    # Bob & Di are caught off the board: Bob's K tapped in, Di's hand and both piles counted in points.
    bob_di.locator('.hand-row[data-role="hand"][data-player="Bob"] .hand-name').tap()
    pad = page.locator(".tap-pad")
    expect(pad).to_be_visible()
    page.locator('.tap[data-card="K"]').tap()
    row = bob_di.locator('.hand-row[data-role="hand"][data-player="Bob"]')
    assert row.locator("input").input_value() == "K"
    row_box, pad_box = row.bounding_box(), pad.bounding_box()
    assert row_box["y"] + row_box["height"] <= pad_box["y"] + 1  # the line being filled is not under the pad
    shot(page, "pfh-card-pad-for-a-card-line", full_page=False)
    bob_di.locator('[data-points="hand"][data-player="Di"]').fill("20")
    expect(pad).to_be_hidden()  # a number box: the pad goes
    for player, points in (("Bob", "75"), ("Di", "150")):  # their folds opened by themselves: the piles count
        bob_di.locator(f'[data-points="pile"][data-player="{player}"]').fill(points)
    # Bob & Di: −(K 10 + 20 + 75 + 150) = −255.
    expect(bob_di.locator(".side-live")).to_have_text("This hand −255 · game total −255", timeout=5000)
    expect(page.locator(".preview-error")).to_be_hidden()
    shot(page, "pfh-hand-with-pile-points")

    page.locator("button.save").tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    totals = page.locator(".scorepad .totals td")
    assert [totals.nth(i).inner_text() for i in range(2)] == ["4440", "−255"]
    shot(page, "pfh-after-save")
    context.close()


def test_steppers_never_go_below_zero(phone, base_url):
    page = phone
    body = {"ruleset": "pennies-from-heaven", "players": ["Ann", "Bob"], "first_dealer": "Ann"}
    answer = page.request.post(f"{base_url}/api/games", data=body)
    page.goto(f"{base_url}/games/{answer.json()['id']}/rounds/new")
    settled(page)
    ann = side(page, "Ann")
    ann.locator('button[aria-label$="one fewer (Wild books)"]').tap()
    assert ann.locator('[data-count="wild"]').input_value() == "0"
    step_up(ann, "Wild books", 3)
    ann.locator('button[aria-label$="one fewer (Wild books)"]').tap()
    assert ann.locator('[data-count="wild"]').input_value() == "2"
    box = ann.locator('button[aria-label$="one more (Wild books)"]').bounding_box()
    assert box["width"] >= 48 and box["height"] >= 48  # a big target


def test_the_side_that_went_out_is_not_asked_what_is_left_in_hand(browser, base_url):
    """Issue 40: the side that went out was still offered "Left in hand" boxes (the rules refuse any
    entry there). Marked out, its boxes give way to one line saying so; the other side keeps its boxes;
    another choice brings them back with what was typed."""
    context, page = new_hand_form(browser, base_url)
    ann_cy, bob_di = side(page, "Ann & Cy"), side(page, "Bob & Di")
    ann_cy.locator('[data-points="hand"][data-player="Cy"]').fill("15")
    page.locator('.went-out label:has-text("Ann")').tap()
    expect(ann_cy.locator(".went-out-note")).to_have_text("Ann & Cy went out: nothing left in hand to count.")
    expect(ann_cy.locator('[data-points="hand"]')).to_have_count(2)
    for player in ("Ann", "Cy"):
        expect(ann_cy.locator(f'[data-points="hand"][data-player="{player}"]')).to_be_hidden()
    expect(bob_di.locator('[data-points="hand"][data-player="Bob"]')).to_be_visible()
    expect(bob_di.locator(".went-out-note")).to_be_hidden()
    shot(page, "pfh-side-out-not-asked-left-in-hand", full_page=False)
    page.locator('.went-out label:has-text("Bob")').tap()
    expect(ann_cy.locator('[data-points="hand"][data-player="Cy"]')).to_have_value("15")
    expect(bob_di.locator('[data-points="hand"][data-player="Bob"]')).to_be_hidden()
    context.close()


def test_a_side_caught_off_the_board_has_its_piles_opened_and_marked(browser, base_url):
    """Issue 60: "the piles of a side caught off the board sit in a closed, unmarked fold". Ann goes out;
    Bob & Di melded nothing: their piles count (RULES.md), so their folds open, each saying so; once
    Bob & Di have melded points, the mark goes (the folds stay as the scorekeeper left them)."""
    context, page = new_hand_form(browser, base_url)
    ann_cy, bob_di = side(page, "Ann & Cy"), side(page, "Bob & Di")
    expect(bob_di.locator("details.pile[open]")).to_have_count(0)  # nobody out yet: nothing counts
    page.locator('.went-out label:has-text("Ann")').tap()
    expect(bob_di.locator("details.pile[open]")).to_have_count(2)
    expect(bob_di.locator(".pile-counts").first).to_have_text("It counts now: Bob & Di melded nothing.")
    expect(ann_cy.locator(".pile-counts:visible")).to_have_count(0)
    bob_di.locator(".pile-counts").first.scroll_into_view_if_needed()
    shot(page, "pfh-piles-that-count-opened-and-marked", full_page=False)
    bob_di.locator('input[name$="-melded_points"]').fill("60")
    expect(bob_di.locator(".pile-counts:visible")).to_have_count(0)
    context.close()
