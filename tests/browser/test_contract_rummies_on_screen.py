"""Whole games of the contract rummies tapped in on a phone (issue 61): Liverpool Rummy (two "May I?"
buys, seven deals of 10 cards, then 12) and Carioca (two stolen discards at 2 points each, eight
rounds), the totals worked by hand in tests/test_cousins.py on the scorepad; and the meld checker
refusing a Liverpool run round the ace."""

from __future__ import annotations

import re

import pytest
from browser_support import Taps, answered, buy_button, enter_round, settled, shot
from playwright.sync_api import expect

NAMES = ["Ann", "Bob", "Cy", "Di"]
DEALS = [  # test_cousins.py's LIVERPOOL_DEALS, as cards tapped
    ("Ann", {"Bob": ["K", "Q", "5"], "Cy": ["A", "Joker"], "Di": ["2", "3", "4"]}),
    ("Bob", {"Ann": ["9", "9"], "Di": ["10", "J"]}),
    ("Cy", {"Ann": ["A"], "Bob": ["7", "8", "9", "10"], "Di": ["Joker", "Joker"]}),
    ("Di", {"Ann": ["3"], "Bob": ["K"], "Cy": ["Q", "Q", "Q"]}),
    ("Ann", {"Bob": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "2", "3", "4"], "Cy": ["5"], "Di": ["6"]}),
    ("Bob", {"Ann": ["J"], "Cy": ["4", "4"], "Di": ["A", "A"]}),
    ("Cy", {"Bob": ["5", "5"], "Di": ["K", "Q", "J"]}),
]
TOTALS = ["46", "142", "73", "125"]  # Ann, Bob, Cy, Di: the sums worked by hand in test_cousins.py
CARIOCA_ROUNDS = [  # test_cousins.py's CARIOCA_ROUNDS, as cards tapped
    ("Ann", {"Bob": ["A", "Joker"], "Cy": ["5", "5"]}),
    ("Bob", {"Ann": ["K"]}),
    ("Cy", {"Ann": ["2", "3"], "Bob": ["Q", "Q"]}),
    ("Ann", {"Bob": ["9"], "Cy": ["Joker"]}),
    ("Bob", {"Ann": ["A", "A"], "Cy": ["4"]}),
    ("Cy", {"Bob": ["7", "8"]}),
    ("Ann", {"Bob": ["10"], "Cy": ["J", "Q"]}),
    ("Bob", {"Ann": ["3"], "Cy": ["6", "6", "6"]}),
]
GAMES = [
    ("liverpool-rummy", NAMES, DEALS, TOTALS),
    ("carioca", NAMES[:3], CARIOCA_ROUNDS, ["58", "108", "82"]),
]


@pytest.mark.parametrize("ruleset_id, names, deals, totals", GAMES, ids=[game[0] for game in GAMES])
def test_a_whole_contract_rummy_game_on_a_phone(phone, base_url, ruleset_id, names, deals, totals):
    page = phone
    page.goto(f"{base_url}/games/new")
    page.select_option("#ruleset", ruleset_id)
    for seat, name in enumerate(names):
        page.fill(f"#players-{seat}", name)
    page.select_option("#first_dealer", "0")
    page.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    settled(page)
    expect(page.locator("body")).to_contain_text("2 sets of 3")
    for _ in range(2):
        with answered(page):
            buy_button(page, "Bob").tap()
    taps = Taps(page)
    for number, (went_out, hands) in enumerate(deals, start=1):
        enter_round(page, taps, went_out, hands)
        settled(page)
        if number == 4:
            expect(page.locator("body")).to_contain_text("2 sets of 3 and 1 run of 4")  # round 5's contract
            expect(page.locator("body")).to_contain_text("12 cards each")
    expect(page.locator(".scorepad .totals td")).to_have_text(totals)
    shot(page, f"{ruleset_id}-finished-390")


def test_the_meld_checker_refuses_a_liverpool_run_round_the_ace(phone, base_url):
    page = phone
    page.goto(f"{base_url}/melds?ruleset=liverpool-rummy&round=2")
    settled(page)
    lines = page.locator(".meld-line input, textarea, input[name^=melds]")
    lines.nth(0).fill("8H 8S 8C")
    lines.nth(1).fill("QS KS AS 2S")
    page.get_by_role("button", name="Check").click()
    expect(page.locator("body")).to_contain_text("may not go round it (Q K A 2)")
    shot(page, "liverpool-run-round-the-ace-390")
