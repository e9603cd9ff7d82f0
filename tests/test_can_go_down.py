""" "Can I go down with these?" (issue 42): a player's own question about their hand, for every round of
every shipped ruleset, with a hand that does (RULES.md's contract laid out) and one that does not (a
card short); read-only: the game's version and history do not move."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import make_app

from scorekeeper.rules.cards import parse_hand
from scorekeeper.rules.go_down import can_go_down
from scorekeeper.rules.melds import label
from scorekeeper.rules.rulesets import Ruleset, parse_ruleset

# RULES.md's contracts as (sets, size); a hand of natural sets of distinct ranks makes each.
TEN_PENNIES = [(2, 3), (1, 4), (2, 4), (1, 5), (2, 5), (1, 6), (1, 7)]
TEN_CARD_RUMMY = [(1, 3), (2, 3), (1, 4), (2, 4), (1, 5), (2, 5), (1, 6), (1, 7), (1, 8), (1, 9), (1, 10)]
SUITS = "SHDC"
RANKS = ["K", "Q", "J", "10", "9", "8"]


def natural_sets(sets: int, size: int) -> str:
    """``sets`` sets of ``size`` naturals, each of its own rank, suits in turn (several decks)."""
    return " ".join(f"{RANKS[i]}{SUITS[j % 4]}" for i in range(sets) for j in range(size))


def one_short(hand: str) -> str:
    return hand.split(" ", 1)[1]


# The virtual-tabletop edition: no two cards alike in a meld, so a set holds at most 4 naturals;
# rounds 1–4 jokers only (1, 1, 1, 2 a set); rounds 5–6 two of each kind, round 7 three.
PCIO = [
    "KS KH KD QS QH QD",
    "KS KH KD KC",
    "KS KH KD KC QS QH QD QC",
    "KS KH KD KC JKR",
    "KS KH KD KC JKR QS QH QD QC JKR",
    "KS KH KD KC JKR JKR",
    "KS KH KD KC JKR JKR JKR",
]
HANDS = (
    [("ten-pennies", n, natural_sets(*shape)) for n, shape in enumerate(TEN_PENNIES, start=1)]
    + [("ten-card-rummy", n, natural_sets(*shape)) for n, shape in enumerate(TEN_CARD_RUMMY, start=1)]
    + [("ten-pennies-pcio", n, hand) for n, hand in enumerate(PCIO, start=1)]
    + [("pennies-from-heaven", n, "KS KH KD QS QH QD AS AH AD") for n in (1, 2, 3)]  # 30 + 30 + 60 = 120
)


@pytest.fixture
def client(tmp_path: Path):
    return make_app(tmp_path).test_client()


def ask(client, game_id: int, number: int, cards: str) -> dict:
    answer = client.post(f"/api/games/{game_id}/rounds/{number}/can-go-down", json={"cards": cards})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


@pytest.mark.parametrize("ruleset_id", ["ten-pennies", "ten-card-rummy", "ten-pennies-pcio", "pennies-from-heaven"])
def test_every_round_answers_a_hand_that_does_and_one_that_does_not(client, ruleset_id):
    players = ["Ann", "Bob", "Cy", "Di"]
    gid = client.post("/api/games", json={"ruleset": ruleset_id, "players": players}).get_json()["id"]
    client.post(f"/api/games/{gid}/buys", json={"player": "Bob"})
    before = client.get(f"/api/games/{gid}").get_json(), client.get(f"/api/games/{gid}/history").get_json()
    for name, number, hand in HANDS:
        if name != ruleset_id:
            continue
        does = ask(client, gid, number, hand)
        assert does["makes_contract"] and does["arrangement"] and does["missing"] == "", (number, does)
        short = one_short(hand) if ruleset_id != "pennies-from-heaven" else "KS KH 4S 5S"
        does_not = ask(client, gid, number, short)
        assert not does_not["makes_contract"] and does_not["missing"].startswith(("you need", "no book")), number
    after = client.get(f"/api/games/{gid}").get_json(), client.get(f"/api/games/{gid}/history").get_json()
    assert after == before


def test_what_is_missing_is_said_and_true(client):
    rules = parse_ruleset((Path(__file__).parents[1] / "scorekeeper/rules/data/ten-pennies.toml").read_text())
    answer = can_go_down(rules, 1, parse_hand("7S 7H 7D 9C 9H K Q 4"))
    assert answer.missing == "you need 1 more set of 3: 9♣ 9♥ and one more 9 or a wild would do"
    assert can_go_down(rules, 1, parse_hand("7S 7H 7D 9C 9H 2D K Q 4")).makes_contract  # a wild would do
    assert can_go_down(rules, 1, parse_hand("7S 7H 7D 9C 9H 9D K Q 4")).makes_contract  # one more 9 would do
    answer = can_go_down(rules, 5, parse_hand("7S 7H 7D 9C K Q 4"))
    assert answer.missing == "you need 2 more sets of 5: 7♠ 7♥ 7♦ and 2 wilds would make one"
    answer = can_go_down(rules, 4, parse_hand("9 9 9 2 K"))  # the 2 held counts, and is named: one card more
    assert answer.missing == "you need 1 more set of 5: 9 9 9 2 and one more 9 or a wild would do"
    assert (
        can_go_down(rules, 1, parse_hand("K Q 4")).missing
        == "you need 2 more sets of 3: K and 2 more Ks would make one"
    )


def test_pennies_from_heaven_says_the_points_towards_the_board(client):
    gid = client.post("/api/games", json={"ruleset": "pennies-from-heaven", "players": ["Ann", "Bob"]}).get_json()
    answer = ask(client, gid["id"], 2, "KS KH KD 4S 5S")
    assert answer["missing"] == (
        "these make 30 points: you need 60 more to get on the board (it takes 90; 15 if your side is below zero)"
    )


def test_a_bad_question_is_refused_in_words(client):
    gid = client.post("/api/games", json={"ruleset": "ten-pennies", "players": ["Ann", "Bob"]}).get_json()["id"]
    url = f"/api/games/{gid}/rounds"
    assert client.post(f"{url}/8/can-go-down", json={"cards": "K"}).get_json() == {
        "error": "Ten Pennies has rounds 1 to 7, not 8"
    }
    refused = client.post(f"{url}/1/can-go-down", json={"cards": "K Z"}).get_json()["error"]
    assert refused.startswith("your cards:") and "'Z'" in refused
    assert "more than the decks" in client.post(f"{url}/1/can-go-down", json={"cards": "K " * 300}).get_json()["error"]
    assert client.post(f"{url}/1/can-go-down", json={"cards": "K" * 5000}).status_code == 400
    assert client.post(f"{url}/1/can-go-down", json={}).status_code == 400


# --- Pennies From Heaven: the books a hand makes, worked by hand (RULES.md: books of 3 to 7, a wild card
# to every two naturals and at most two, no wild in a book of sevens, black threes never melded) ---------

TAKES_50 = "(it takes 50; 15 if your side is below zero)"


def books_said(*books: tuple[str, int]) -> tuple[str, ...]:
    return tuple(f"{label(parse_hand(cards))}: {points} points" for cards, points in books)


def test_a_pair_and_a_wild_card_make_a_book_the_best_wild_to_the_best_pair(rulesets):
    """A♠ A♥ and K♠ K♥ are pairs; the joker (50) goes to the aces (20 each), the 2 (20) to the kings;
    the second 2 has no book left with room (two naturals take one wild) and is no book alone; the two
    black threes are never a book, not even with a wild."""
    answer = can_go_down(rulesets["pennies-from-heaven"], 1, parse_hand("KS KH 2C AS AH 3S 3C 2D JKR"))
    assert answer.makes_contract and answer.missing == ""
    assert answer.arrangement == (
        *books_said(("AS AH JKR", 90), ("KS KH 2C", 40)),
        f"130 points: on the board {TAKES_50}",
    )


def test_sevens_take_no_wild_card_and_a_book_with_room_takes_the_wild_left(rulesets):
    """7♠ 7♥ stay a pair (a book of sevens is all natural); K♠ K♥ K♦ take the 2: exactly the 50 the
    first hand asks for."""
    answer = can_go_down(rulesets["pennies-from-heaven"], 1, parse_hand("7S 7H 2C KS KH KD"))
    assert answer.arrangement == (*books_said(("KS KH KD 2C", 50)), f"50 points: on the board {TAKES_50}")


def test_three_wild_cards_make_a_wild_book(rulesets):
    answer = can_go_down(rulesets["pennies-from-heaven"], 1, parse_hand("2C KS 2D JKR"))
    assert answer.arrangement == (*books_said(("JKR 2C 2D", 90)), f"90 points: on the board {TAKES_50}")


def test_a_pair_takes_the_one_wild_card_it_needs(rulesets):
    """K♠ K♥ and the 2 they need make a book (10 + 10 + 20): short of the 50 the first hand asks."""
    answer = can_go_down(rulesets["pennies-from-heaven"], 1, parse_hand("KS KH 2C"))
    assert answer.arrangement == books_said(("KS KH 2C", 40))
    assert answer.missing == f"these make 40 points: you need 10 more to get on the board {TAKES_50}"


def test_the_one_wild_card_goes_to_the_pair_worth_more(rulesets):
    """Fives and kings, one joker: it makes the kings a book (10 + 10 + 50), the fives stay a pair."""
    answer = can_go_down(rulesets["pennies-from-heaven"], 1, parse_hand("5S 5H KS KH JKR"))
    assert answer.arrangement == (*books_said(("KS KH JKR", 70)), f"70 points: on the board {TAKES_50}")


def test_three_naturals_take_one_wild_card_and_four_take_two(rulesets):
    """At least 2 naturals per wild card: 4♠ 4♥ 4♦ take one 2 and the other 2 is no book alone;
    four queens take the joker and the 2 (40 + 50 + 20)."""
    pfh = rulesets["pennies-from-heaven"]
    fours = can_go_down(pfh, 1, parse_hand("4S 4H 4D 2S 2H"))
    assert fours.arrangement == books_said(("4S 4H 4D 2S", 35))
    assert fours.missing == f"these make 35 points: you need 15 more to get on the board {TAKES_50}"
    queens = can_go_down(pfh, 1, parse_hand("QS QH QD QC JKR 2C"))
    assert queens.arrangement == (*books_said(("QS QH QD QC JKR 2C", 110)), f"110 points: on the board {TAKES_50}")


def test_a_book_closes_at_seven_cards(rulesets):
    """Six jacks have room for two wild cards, but a book closes at 7: J×6 and one 2 (60 + 20)."""
    answer = can_go_down(rulesets["pennies-from-heaven"], 1, parse_hand("JS JH JD JC JS JH 2H 2S"))
    assert answer.arrangement == (*books_said(("JS JH JD JC JS JH 2H", 80)), f"80 points: on the board {TAKES_50}")


def test_no_book_and_a_book_short_of_the_board(rulesets):
    pfh = rulesets["pennies-from-heaven"]
    nothing = can_go_down(pfh, 1, parse_hand("KS QH 2C"))
    assert (nothing.makes_contract, nothing.arrangement) == (False, ())
    assert nothing.missing == f"no book yet: you need 50 points to get on the board {TAKES_50}"
    short = can_go_down(pfh, 1, parse_hand("4S 4H 4D"))
    assert (short.makes_contract, short.arrangement) == (False, books_said(("4S 4H 4D", 15)))
    assert short.missing == f"these make 15 points: you need 35 more to get on the board {TAKES_50}"


def test_a_house_with_no_board_minimum_still_needs_a_book_to_go_down():
    """A house that plays round 1 with no minimum (board_minimum = 0): a book of any points gets its
    side on the board, but a hand with no book cannot go down at all (it said yes: 0 points ≥ 0)."""
    text = (Path(__file__).parents[1] / "scorekeeper/rules/data/pennies-from-heaven.toml").read_text()
    house = parse_ruleset(text.replace("board_minimum = 50", "board_minimum = 0", 1))
    nothing = can_go_down(house, 1, parse_hand("KS QH 4D"))
    assert (nothing.makes_contract, nothing.arrangement) == (False, ())
    assert nothing.missing.startswith("no book yet: you need a book to get on the board (it takes 0;")
    fours = can_go_down(house, 1, parse_hand("4S 4H 4D KS"))
    assert (fours.makes_contract, fours.arrangement[0]) == (True, "4♠ 4♥ 4♦: 15 points")


# --- contract games: what the answer says when the hand falls short ------------------------------------


def ten_pennies_with_first_round(contract: str) -> Ruleset:
    """Ten Pennies as shipped, its first round's contract changed (a house's own)."""
    text = (Path(__file__).parents[1] / "scorekeeper/rules/data/ten-pennies.toml").read_text()
    return parse_ruleset(text.replace("contract = { melds = 2, size = 3 }", f"contract = {contract}", 1))


def test_a_house_contract_of_three_sets_counts_the_sets_the_hand_makes():
    """Three sets of 3 asked, one made (7 7 7): the answer counts two more, and lays out the one."""
    rules = ten_pennies_with_first_round("{ melds = 3, size = 3 }")
    answer = can_go_down(rules, 1, parse_hand("7S 7H 7D K Q 4"))
    assert answer.makes_contract is False
    assert answer.arrangement == (f"{label(parse_hand('7S 7H 7D'))}: set of 3 × 7",)
    assert answer.missing.startswith("you need 2 more sets of 3: ")


def test_a_contract_of_sets_or_runs_asks_for_melds(rulesets):
    answer = can_go_down(rulesets["ten-card-rummy"], 1, parse_hand("KS QH 9D"))
    assert answer.missing.startswith("you need 1 more meld of 3")


def test_a_hand_with_no_natural_card_gets_no_hint(rulesets):
    """A 2 alone (wild in round 1): nothing to build a set on, so the answer says what is needed and
    stops. (A joker is no wild before round 5: three jokers are a set, so a joker gets a hint.)"""
    answer = can_go_down(rulesets["ten-pennies"], 1, parse_hand("2S"))
    assert (answer.makes_contract, answer.arrangement, answer.missing) == (False, (), "you need 2 more sets of 3")


def test_the_card_a_hint_tries_is_one_the_hand_does_not_hold(rulesets):
    """Ten Pennies (PCIO): no meld may hold the same card twice. Holding 9♣ 9♦, one more 9 would do
    (9♥ or 9♠, not a second 9♣), or a joker."""
    rules = rulesets["ten-pennies-pcio"]
    answer = can_go_down(rules, 1, parse_hand("7S 7H 7D 9C 9D KS QH 4D"))
    assert answer.missing == "you need 1 more set of 3: 9♣ 9♦ and one more 9 or a wild would do"
