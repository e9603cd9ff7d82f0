"""A whole game of Liverpool Rummy tapped in on a phone (issue 61): two "May I?" buys, seven deals
(10 cards, then 12), the totals worked by hand in tests/test_cousins.py on the scorepad, and the
meld checker refusing a run round the ace."""

from __future__ import annotations

import re

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


def test_a_whole_liverpool_game_on_a_phone(phone, base_url):
    page = phone
    page.goto(f"{base_url}/games/new")
    page.select_option("#ruleset", "liverpool-rummy")
    for seat, name in enumerate(NAMES):
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
    for number, (went_out, hands) in enumerate(DEALS, start=1):
        enter_round(page, taps, went_out, hands)
        settled(page)
        if number == 4:
            expect(page.locator("body")).to_contain_text("2 sets of 3 and 1 run of 4")  # deal 5's contract
            expect(page.locator("body")).to_contain_text("12 cards each")
    totals = page.locator(".scorepad .totals td")
    expect(totals).to_have_text(TOTALS)
    shot(page, "liverpool-finished-390")
    page.goto(f"{base_url}/melds?ruleset=liverpool-rummy&round=2")
    settled(page)
    lines = page.locator(".meld-line input, textarea, input[name^=melds]")
    lines.nth(0).fill("8H 8S 8C")
    lines.nth(1).fill("QS KS AS 2S")
    page.get_by_role("button", name="Check").click()
    expect(page.locator("body")).to_contain_text("may not go round it (Q K A 2)")
    shot(page, "liverpool-run-round-the-ace-390")
