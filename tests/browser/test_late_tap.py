"""A late tap on a player's phone (issue 40): Cy taps a forgotten 9 just as the scorekeeper saves the
round. The hand belongs to the round it was typed in: it is never filed in the next round, the phone
keeps the cards in sight, says the round was saved already, and sends them as a correction request
when Cy asks; the scorekeeper's game page then offers the correction.

The tap lands before the save, just after it (the phone still shows the round), and after the phone's
view has moved on; 25 trials in all, the scorekeeper on one browser context and Cy on another."""

from __future__ import annotations

import pytest
from browser_support import PHONE, settled, shot
from playwright.sync_api import expect

NAMES = ["Ann", "Bob", "Cy", "Di"]
SAVED = {"Bob": "K", "Cy": "5 5 5", "Di": ""}  # what the scorekeeper saw of Cy's hand: 15 points
TRIALS = 25
# When the 9 lands, in ms after the scorekeeper's save; None: once the phone shows the next round.
OFFSETS = [-300, 0, 150, 400, 900, None]


@pytest.fixture
def phones(browser):
    contexts = [
        browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True) for _ in range(2)
    ]
    yield tuple(context.new_page() for context in contexts)
    for context in contexts:
        context.close()


def new_game(keeper, base_url) -> tuple[int, str]:
    answer = keeper.request.post(
        f"{base_url}/api/games", data={"ruleset": "ten-pennies", "players": NAMES, "first_dealer": "Ann"}
    )
    gid = answer.json()["id"]
    token = keeper.request.get(f"{base_url}/games/{gid}").text().split("/live/")[1].split('"')[0]
    return gid, token


def drafts(keeper, base_url, gid, number) -> dict[str, str]:
    answer = keeper.request.get(f"{base_url}/api/games/{gid}/rounds/{number}/drafts").json()
    return {draft["player"]: draft["cards"] for draft in answer["drafts"]}


def tap(page, card: str) -> None:
    page.locator(f'.my-hand .tap[data-card="{card}"]').tap()


def shows_round(page, number: int) -> None:
    """Wait for the live view to show round ``number`` (it polls every 2 s)."""
    page.wait_for_function("(n) => document.querySelector('#live .live-round').dataset.round === String(n)", arg=number)


def shown_round(page) -> str:
    return page.locator("#live .live-round").get_attribute("data-round")


def play_trial(cy, keeper, base_url, gid, number, offset) -> str:
    """Cy's 5 5 5 is sent for round ``number``; the scorekeeper saves the round; the 9 lands at
    ``offset``. Returns where the 9 ended up: "next round" (tapped once the phone showed the next
    round) or "kept" (kept on the phone for its own round)."""
    for card in ("5", "5", "5"):
        tap(cy, card)
    expect(cy.locator(".my-hand-status")).to_have_text(
        f"Sent to the scorekeeper for round {number}: 15 points · 3 pennies."
    )
    if offset is not None and offset < 0:
        tap(cy, "9")
        cy.wait_for_timeout(-offset)
    saved = keeper.request.post(f"{base_url}/api/games/{gid}/rounds", data={"went_out": "Ann", "caught": SAVED})
    assert saved.status == 201, saved.text()
    if offset is None:
        shows_round(cy, number + 1)
        tap(cy, "9")
    elif offset >= 0:
        cy.wait_for_timeout(offset)
        tap(cy, "9")
    # Whatever the timing, the phone comes to rest within the live view's poll (2 s) and one send:
    # either the 9 was tapped into the next round's empty box, or the round's cards are kept.
    shows_round(cy, number + 1)
    status, error, cards = cy.locator(".my-hand-status"), cy.locator(".my-hand-error"), cy.locator("#my-cards")
    sent_next = f"Sent to the scorekeeper for round {number + 1}: 5 points · 1 penny."
    refused = f"round {number} was saved already: tell the scorekeeper, or send it as a correction request"
    cy.wait_for_function(
        "([sent, refused]) => document.querySelector('.my-hand-status').textContent === sent"
        " || document.querySelector('.my-hand-error').textContent === refused",
        arg=[sent_next, refused],
    )
    if status.text_content() == sent_next:
        assert offset is None or offset >= 0  # a tap before the save is always round 1's
        assert cards.input_value() == "9"
        assert drafts(keeper, base_url, gid, number + 1) == {"Cy": "9"}
        return "next round"
    assert offset is not None
    expect(error).to_be_visible()
    expect(cards).to_have_value("5 5 5 9")  # the cards stay in sight, for their own round
    expect(cy.locator(".my-hand-round")).to_have_text(f"for round {number}")
    expect(cy.locator(".send-correction")).to_be_visible()
    assert drafts(keeper, base_url, gid, number + 1) == {}  # never filed in the next round
    return "kept"


def test_a_late_tap_is_never_filed_in_the_next_round(phones, base_url):
    keeper, cy = phones
    outcomes = []
    gid, number = None, 8
    for trial in range(TRIALS):
        if number > 7 - 1:  # a game has 7 rounds: a new one, with the phone opened on it
            gid, token = new_game(keeper, base_url)
            number = 1
            cy.goto(f"{base_url}/live/{token}")
            settled(cy)
            cy.select_option('.my-hand select[name="me"]', "Cy")
            cy.locator(".my-hand-fold summary").click()  # the pad opens when the round ends
        offset = OFFSETS[trial % len(OFFSETS)]
        outcome = play_trial(cy, keeper, base_url, gid, number, offset)
        outcomes.append(outcome)
        if outcome == "kept":
            if trial == 0:
                shot(cy, "late-tap-kept-on-the-phone", full_page=False)
            cy.locator(".clear-late").tap()
            expect(cy.locator("#my-cards")).to_have_value("")
            expect(cy.locator(".my-hand-round")).to_have_text(f"for round {number + 1}")
        else:
            keeper.request.put(f"{base_url}/api/games/{gid}/rounds/{number + 1}/drafts/Cy", data={"cards": ""})
            cy.locator("#my-cards").fill("")
            cy.locator("#my-cards").dispatch_event("input")
            expect(cy.locator(".my-hand-status")).to_contain_text(f"for round {number + 1}: 0 points")
        number += 1
    assert len(outcomes) == TRIALS and "kept" in outcomes and "next round" in outcomes


def test_a_kept_late_hand_goes_as_a_correction_request_and_the_scorekeeper_is_offered_it(phones, base_url):
    keeper, cy = phones
    gid, token = new_game(keeper, base_url)
    cy.goto(f"{base_url}/live/{token}")
    settled(cy)
    cy.select_option('.my-hand select[name="me"]', "Cy")
    cy.locator(".my-hand-fold summary").click()  # the pad opens when the round ends
    assert play_trial(cy, keeper, base_url, gid, 1, -300) == "kept"
    cy.locator(".send-correction").tap()
    expect(cy.locator(".my-hand-status")).to_have_text(
        "Sent to the scorekeeper as a correction request for round 1: 20 points · 4 pennies."
    )
    expect(cy.locator("#my-cards")).to_have_value("5 5 5 9")
    assert drafts(keeper, base_url, gid, 1) == {"Cy": "5 5 5 9"}
    assert drafts(keeper, base_url, gid, 2) == {}
    shot(cy, "late-tap-sent-as-a-correction-request", full_page=False)
    keeper.goto(f"{base_url}/games/{gid}")
    settled(keeper)
    requests = keeper.locator(".correction-requests")
    expect(requests).to_contain_text("Cy's phone, for round 1: 5 5 5 9 (20 points)")
    shot(keeper, "late-tap-correction-request-on-the-game-page", full_page=False)
    with keeper.expect_navigation():
        requests.get_by_role("link", name="Correct round 1").tap()
    settled(keeper)
    expect(keeper.locator('.hand-row[data-player="Cy"] .from-phone')).to_have_text(
        "from Cy's phone · 20 pts: 5 5 5 9", timeout=3000
    )
    # The phone goes on to round 2 with one tap, its box empty and for the round in play.
    cy.locator(".clear-late").tap()
    expect(cy.locator("#my-cards")).to_have_value("")
    expect(cy.locator(".my-hand-round")).to_have_text("for round 2")
    assert shown_round(cy) == "2"


def test_the_nights_next_game_waits_for_a_hand_kept_on_the_phone(phones, base_url):
    """A phone following the night goes on to the next game by itself, but not while it holds a hand
    its player has not sent or cleared: Cy's late 9 is kept for round 1 when the scorekeeper starts
    the night's next game; the phone says so and stays; once Cy clears it, it goes on."""
    cy, keeper = phones
    night = keeper.request.post(f"{base_url}/api/nights", data={}).json()["id"]
    share = keeper.request.get(f"{base_url}/api/nights/{night}").json()["share_url"]
    body = {"ruleset": "ten-pennies", "players": NAMES, "first_dealer": "Ann", "night": night}
    first = keeper.request.post(f"{base_url}/api/games", data=body).json()["id"]
    cy.goto(share)
    settled(cy)
    cy.select_option('.my-hand select[name="me"]', "Cy")
    cy.wait_for_function("(g) => document.getElementById('live')?.dataset.game === String(g)", arg=first)
    cy.locator(".my-hand-fold summary").click()
    assert play_trial(cy, keeper, base_url, first, 1, -300) == "kept"
    second = keeper.request.post(f"{base_url}/api/games", data={**body, "first_dealer": "Bob"}).json()["id"]
    expect(cy.locator(".my-hand-status")).to_have_text(
        "Your cards for round 1 are kept here, not sent. The night's next game has started: send or clear"
        " your hand, then this phone goes on to it.",
        timeout=5000,
    )
    assert cy.locator("#live").get_attribute("data-game") == str(first)
    expect(cy.locator("#my-cards")).to_have_value("5 5 5 9")
    shot(cy, "late-tap-kept-while-the-night-moves-on", full_page=False)
    cy.locator(".clear-late").tap()
    cy.wait_for_function("(g) => document.getElementById('live')?.dataset.game === String(g)", arg=second, timeout=5000)
