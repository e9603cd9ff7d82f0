"""Faults a mutation run left alive (issue 25), each now a test written from the rule it breaks:
the settlement's seat order, no 0-cent payment, no "−$0.00", best and worst rounds, a book closing at
7, a night's one PIN, "not paid after all" on the page, and a Ten Card Rummy hand the contract search
once missed."""

from __future__ import annotations

import re

import pytest
from support import PLAYERS, csrf_token, words

from scorekeeper.rules.cards import parse_hand
from scorekeeper.rules.contract import find_contract
from scorekeeper.rules.ledger import Payment, format_cents, settle, settle_with_keeper, signed_cents
from scorekeeper.rules.melds import check_layoff

# --- the settlement: fewest payments, ties by seat order (README: "Payments made") -----------------


def test_equal_debtors_pay_in_seat_order():
    nets = {"Ann": 10, "Bob": -5, "Cy": -5}
    assert settle(nets, ["Ann", "Bob", "Cy"]) == [Payment("Bob", "Ann", 5), Payment("Cy", "Ann", 5)]
    assert settle(nets, ["Cy", "Bob", "Ann"]) == [Payment("Cy", "Ann", 5), Payment("Bob", "Ann", 5)]


def test_equal_creditors_are_paid_in_seat_order():
    nets = {"Ann": 5, "Bob": 5, "Cy": -10}
    assert settle(nets, ["Ann", "Bob", "Cy"]) == [Payment("Cy", "Ann", 5), Payment("Cy", "Bob", 5)]
    assert settle(nets, ["Bob", "Ann", "Cy"]) == [Payment("Cy", "Bob", 5), Payment("Cy", "Ann", 5)]


def test_the_bowl_keeper_asks_nothing_of_a_player_who_is_even():
    nets = {"Ann": 7, "Bob": 0, "Cy": -7}
    assert settle_with_keeper(nets, "Ann", ["Ann", "Bob", "Cy"]) == [Payment("Cy", "Ann", 7)]
    assert settle_with_keeper(nets, "Bob", ["Ann", "Bob", "Cy"]) == [Payment("Cy", "Bob", 7), Payment("Bob", "Ann", 7)]


@pytest.mark.parametrize(
    ("cents", "plain", "signed"),
    [(0, "$0.00", "$0.00"), (1, "$0.01", "+$0.01"), (-1, "−$0.01", "−$0.01"), (100, "$1.00", "+$1.00"),
     (-305, "−$3.05", "−$3.05"), (99, "$0.99", "+$0.99")],
)  # fmt: skip
def test_money_is_written_one_way_and_nothing_is_minus_zero(cents, plain, signed):
    assert (format_cents(cents), signed_cents(cents)) == (plain, signed)


# --- best and worst round on a player's page ---------------------------------------------------


def test_a_players_best_round_is_the_fewest_points_when_lowest_wins(api, client):
    # Ten Pennies (lowest wins; 3–9 = 5, K = 10, A = 20). Ann goes out every round; Bob is caught
    # with K K (20) every round; Cy with K (10), A (20), 3 (5), then nothing: best 0, worst 20.
    cy = ["K", "A", "3", "", "", "", ""]
    game = api.new_game()["id"]
    for hand in cy:
        api.round(game, "Ann", {"Bob": "K K", "Cy": hand, "Di": ""})
    board = client.get("/players").text
    cy = re.search(r'href="(/players/\d+)"[^>]*>Cy<', board).group(1)
    page = words(client.get(cy).text)
    assert re.search(r"Best round 0, worst 20\s", page), page


# --- a book closes at 7 (RULES.md, Pennies From Heaven) -------------------------------------------


@pytest.mark.parametrize(
    ("onto", "cards", "valid", "reason"),
    [("K K K K K", "K", True, ""), ("K K K K K K", "K", True, ""), ("K K K K K", "K K", True, ""),
     ("K K K K K K K", "K", False, "closed at 7"), ("K K K K K K", "K K", False, "8 cards")],
)  # fmt: skip
def test_a_book_takes_cards_up_to_seven_and_no_more(rulesets, onto, cards, valid, reason):
    verdict = check_layoff(rulesets["pennies-from-heaven"], 1, parse_hand(onto), parse_hand(cards))
    assert verdict.valid is valid, verdict.reasons
    assert reason in " ".join(verdict.reasons)


# --- a night has one PIN --------------------------------------------------------------------------


def test_a_second_pin_never_replaces_a_locked_nights_pin(api, client):
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    body = {"ruleset": "ten-pennies", "players": PLAYERS, "night": night, "pin": "1234"}
    api.call("POST", "/api/games", body, 201)
    token = api.call("POST", f"/api/nights/{night}/unlock", {"pin": "1234"})["token"]
    second = client.post("/api/games", json={**body, "pin": "9999"}, headers={"Authorization": f"Bearer {token}"})
    assert second.status_code == 201  # the game joins the night, under the night's one PIN
    assert client.post(f"/api/nights/{night}/unlock", json={"pin": "9999"}).status_code == 403
    assert client.post(f"/api/nights/{night}/unlock", json={"pin": "1234"}).status_code == 200


# --- "not paid after all" on the page -------------------------------------------------------------


def test_not_paid_after_all_and_paid_after_all_on_the_night_page(api, client):
    night = api.call("POST", "/api/nights", {"money": "paper"}, 201)["id"]
    game = api.new_game(night=night)["id"]
    for _ in range(7):  # Ann goes out every round, the others are caught with a card: 7 pennies each
        api.round(game, "Ann", {"Bob": "K", "Cy": "5", "Di": "5"})
    others = [{"from": "Cy", "to": "Ann", "cents": 7}, {"from": "Di", "to": "Ann", "cents": 7}]
    paid = api.call("POST", f"/api/nights/{night}/payments", {"from": "Bob", "to": "Ann", "cents": 7}, 201)
    payment = paid["payments_made"][0]["id"]
    assert api.call("GET", f"/api/nights/{night}")["still_owed"] == others
    page = client.get(f"/nights/{night}").text
    client.post(f"/nights/{night}/payments/{payment}", data={"csrf_token": csrf_token(page), "undone": "1"})
    report = api.call("GET", f"/api/nights/{night}")
    assert report["still_owed"] == [{"from": "Bob", "to": "Ann", "cents": 7}, *others]
    assert report["payments_made"][0]["undone_at"]  # kept in the night's history, struck through
    page = client.get(f"/nights/{night}").text
    assert "not paid after all" in words(page) and "Paid after all" in page
    client.post(f"/nights/{night}/payments/{payment}", data={"csrf_token": csrf_token(page), "undone": "0"})
    report = api.call("GET", f"/api/nights/{night}")
    assert report["still_owed"] == others and report["payments_made"][0]["undone_at"] is None


# --- the contract search ------------------------------------------------------------------------


def test_the_ten_card_rummy_round_6_hand_a_random_search_found_makes_the_contract(rulesets):
    # Two runs of 5 (RULES.md: 2s and jokers wild): 3♥–7♥ as 2♠ 4♥ 2♥ 6♥ 7♥ and as JKR 4♥ 5♥ JKR 7♥.
    hand = parse_hand("2S 2H 4H 4H 5H 6H 7H 7H 9D JKR JKR")
    verdict = find_contract(rulesets["ten-card-rummy"], 6, hand)
    assert verdict.valid, verdict.reasons
