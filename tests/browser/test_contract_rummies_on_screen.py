"""Whole games of the contract rummies tapped in on a phone (issue 61): Liverpool Rummy (two "May I?"
buys, seven deals of 10 cards, then 12), Carioca (two stolen discards at 2 points each, eight
rounds), Shanghai Rummy (ten deals, 3 buys in deal 1 and 4 in deal 9, the most each allows) and
Continental (seven hands dealt 7 to 13, a robo de contra, a hand gone down and out at once), the
totals worked by hand in tests/test_cousins.py on the scorepad; and the meld checker refusing a
Liverpool run round the ace and two Continental jokers side by side."""

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
SHANGHAI_DEALS = [  # test_cousins.py's SHANGHAI_DEALS, as cards tapped
    *DEALS[:4],
    ("Ann", {"Bob": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"], "Cy": ["5"], "Di": ["6"]}),
    *DEALS[5:7],
    ("Di", {"Ann": ["2"], "Bob": ["Joker"], "Cy": ["10", "10"]}),
    ("Ann", {"Bob": ["9"], "Cy": [*"AAAA", *"KKKK", *"QQQQ", *"2222", *"333"]}),
    ("Bob", {"Ann": ["4", "4", "4"], "Cy": ["Joker"], "Di": ["8"]}),
]
CONTINENTAL_HANDS = [  # test_cousins.py's CONTINENTAL_HANDS, as cards tapped: Carioca's first six, then a 7th
    *CARIOCA_ROUNDS[:6],
    ("Ann", {"Bob": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"], "Cy": ["Joker", "Joker"]}),
]
GAMES = [  # ruleset, players, rounds, buys by round, what round 5's card says, the totals
    ("liverpool-rummy", NAMES, DEALS, {1: ["Bob", "Bob"]}, ("2 sets of 3 and 1 run of 4", "12 cards each"), TOTALS),
    (
        "carioca",
        NAMES[:3],
        CARIOCA_ROUNDS,
        {1: ["Bob", "Bob"]},
        ("2 tríos of 3 and 1 escala of 4", "12 cards each"),
        ["58", "108", "82"],
    ),
    (
        "shanghai-rummy",
        NAMES,
        SHANGHAI_DEALS,
        {1: ["Bob"] * 3, 9: ["Cy"] * 4},
        ("1 set of 3 and 1 run of 7", "11 cards each"),
        ["60", "160", "285", "135"],
    ),
    (
        "continental",
        NAMES[:3],
        CONTINENTAL_HANDS,
        {1: ["Bob"]},
        ("2 tríos of 3 and 1 escalera of 4", "11 cards each"),
        ["55", "208", "164"],  # Bob went down and out at once in hand 2: −10
    ),
]

FIRST_CONTRACT = {"carioca": "2 tríos of 3", "continental": "2 tríos of 3"}  # said in the game's own words


def tick_at_once(page, taps: Taps) -> None:
    """Continental's "se baja y cierra en el mismo turno": the box beside who went out."""
    taps.tap("label.at-once")
    expect(page.locator('input[name="at_once"]')).to_be_checked()
    expect(page.locator('.hand-row[data-player="Bob"] .live')).to_have_text("-10 pts")  # the preview takes it off
    shot(page, "continental-down-and-out-at-once-390")


@pytest.mark.parametrize("ruleset_id, names, deals, buys, round_5, totals", GAMES, ids=[game[0] for game in GAMES])
def test_a_whole_contract_rummy_game_on_a_phone(phone, base_url, ruleset_id, names, deals, buys, round_5, totals):
    page = phone
    page.goto(f"{base_url}/games/new")
    page.select_option("#ruleset", ruleset_id)
    for seat, name in enumerate(names):
        page.fill(f"#players-{seat}", name)
    page.select_option("#first_dealer", "0")
    page.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    settled(page)
    expect(page.locator("body")).to_contain_text(FIRST_CONTRACT.get(ruleset_id, "2 sets of 3"))
    taps = Taps(page)
    for number, (went_out, hands) in enumerate(deals, start=1):
        for buyer in buys.get(number, []):
            with answered(page):
                buy_button(page, buyer).tap()
        at_once = ruleset_id == "continental" and number == 2
        enter_round(page, taps, went_out, hands, (lambda: tick_at_once(page, taps)) if at_once else None)
        settled(page)
        if number == 4:
            for words in round_5:
                expect(page.locator("body")).to_contain_text(words)
    expect(page.locator(".scorepad .totals td")).to_have_text(totals)
    shot(page, f"{ruleset_id}-finished-390")


def check_on_the_meld_page(page, base_url: str, ruleset_id: str, number: int, melds: list[str]) -> None:
    page.goto(f"{base_url}/melds?ruleset={ruleset_id}&round={number}")
    settled(page)
    lines = page.locator(".meld-line input, textarea, input[name^=melds]")
    for index, meld in enumerate(melds):
        lines.nth(index).fill(meld)
    page.get_by_role("button", name="Check").click()


def test_the_meld_checker_refuses_a_liverpool_run_round_the_ace(phone, base_url):
    check_on_the_meld_page(phone, base_url, "liverpool-rummy", 2, ["8H 8S 8C", "QS KS AS 2S"])
    expect(phone.locator("body")).to_contain_text("may not go round it (Q K A 2)")
    shot(phone, "liverpool-run-round-the-ace-390")


def test_the_meld_checker_refuses_two_continental_jokers_side_by_side(phone, base_url):
    check_on_the_meld_page(phone, base_url, "continental", 3, ["5S JKR JKR 8S", "QH KH AH 2H"])
    expect(phone.locator("body")).to_contain_text("has two wild cards side by side")
    shot(phone, "continental-jokers-side-by-side-390")


def test_the_new_game_list_says_what_each_game_is(phone, base_url):
    """Issue 61: the games grouped by family and language, each with its line."""
    page = phone
    page.goto(f"{base_url}/games/new")
    settled(page)
    expect(page.locator("#ruleset optgroup")).to_have_count(3)
    page.get_by_text("What each game is").click()
    expect(page.locator(".games-described")).to_contain_text("Continental (Spain): 7 hands of tríos")
    shot(page, "new-game-games-described-390")
