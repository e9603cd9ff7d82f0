"""Pennies From Heaven, one hand's entries checked by the rules engine itself (RULES.md, the seeds'
books): every refusal says what is wrong and names the entry at fault, so the page can mark it; what
is accepted is scored as the table counts it."""

from __future__ import annotations

from typing import Any

import pytest
from support import PLAYERS

from scorekeeper.rules.books import SideEntry, score_hand
from scorekeeper.rules.cards import parse_hand
from scorekeeper.rules.melds import check_layoff
from scorekeeper.rules.scoring import RoundError

US, THEM = ("Ann", "Cy"), ("Bob", "Di")
ALL_BOOKS = {"natural": 1, "sevens": 1, "wild": 1}  # what going out takes


FULL_PILES = {"Bob": parse_hand("4 4 4 4 4 5 5 5 5 5 6 6 6 6 6"), "Di": parse_hand("K K K K K Q Q Q Q Q J J J J J")}
CAUGHT = SideEntry(THEM, piles=FULL_PILES)  # off the board when Ann goes out: their piles count
OUT = SideEntry(US, books=ALL_BOOKS, melded_points=200)


REFUSED = [  # went out, our side's entry, the message, whose entry is at fault
    (None, SideEntry(US, red_threes=-1), "Ann & Cy: counts of red threes and books cannot be negative", "Ann"),
    (None, SideEntry(US, books={"natural": -1}), "Ann & Cy: counts of red threes and books cannot be negative", "Ann"),
    (
        None,
        SideEntry(US, books={"golden": 1}),
        "Ann & Cy: golden is not a kind of book (natural, mixed, sevens, wild)",
        "Ann",
    ),
    (
        None,
        SideEntry(US, books={"silver": 1, "natural": 1, "golden": 2}),
        "Ann & Cy: golden and silver are not kinds of book (natural, mixed, sevens, wild)",
        "Ann",
    ),
    (
        None,
        SideEntry(US, melded=parse_hand("K K K"), melded_points=30),
        "Ann & Cy: give the melded cards or their points total, not both",
        "Ann",
    ),
    (None, SideEntry(US, melded_points=-1), "Ann & Cy: melded points cannot be negative", "Ann"),
    (
        None,
        SideEntry(US, melded=parse_hand("3S K K K")),
        "Ann & Cy: black threes cannot be melded — take them out of the melded cards",
        "Ann",
    ),
    (
        None,
        SideEntry(US, melded=parse_hand("3H K K K")),
        "Ann & Cy: red threes are not melded — count them under red threes",
        "Ann",
    ),
    (
        None,
        SideEntry(US, books={"natural": 1}, melded=parse_hand("K K K")),
        "Ann & Cy: 1 closed book need at least 7 melded cards; 3 were entered",
        "Ann",
    ),
    (
        "Ann",
        SideEntry(US, books=ALL_BOOKS, melded_points=200, hands={"Cy": parse_hand("K")}),
        "Ann & Cy went out, so Cy discards what is left: enter no cards for Cy",
        "Cy",
    ),
    (
        "Ann",
        SideEntry(US, books=ALL_BOOKS, melded_points=200, hand_points={"Cy": 10}),
        "Ann & Cy went out, so Cy discards what is left: enter no cards for Cy",
        "Cy",
    ),
    (
        None,
        SideEntry(US, hands={"Ann": parse_hand("K")}, hand_points={"Ann": 10}),
        "Ann's hand: give its cards or its points, not both",
        "Ann",
    ),
    (None, SideEntry(US, hand_points={"Cy": -5}), "Cy's hand: points counted cannot be negative", "Cy"),
    (
        None,
        SideEntry(US, melded_points=60, piles={"Ann": parse_hand("K")}),
        "Ann & Cy: piles count only against a side caught off the board when another side goes out",
        "Ann",
    ),
    (
        None,
        SideEntry(US, melded_points=40),
        "Ann & Cy melded 40 points, but getting on the board in hand 1 takes 50",
        "Ann",
    ),
]


REFUSED_THEIRS = [  # Ann goes out; their entry, the message, whose entry is at fault
    (
        SideEntry(THEM, piles=FULL_PILES, pile_points={"Bob": 75}),
        "Bob's pile: give its cards or its points, not both",
        "Bob",
    ),
    (SideEntry(THEM, pile_points={"Bob": 75, "Di": -1}), "Di's pile: points counted cannot be negative", "Di"),
    (
        SideEntry(THEM, pile_points={"Bob": 75}),
        "enter Di's pile: Bob & Di is caught off the board, so its piles "
        "count against it (15 cards, or the points counted)",
        "Di",
    ),
]


@pytest.mark.parametrize("went_out, ours, message, at_fault", REFUSED)
def test_a_refused_entry_says_why_and_names_whose_entry_it_is(rulesets, went_out, ours, message, at_fault):
    theirs = CAUGHT if went_out else SideEntry(THEM)
    with pytest.raises(RoundError) as refused:
        score_hand(rulesets["pennies-from-heaven"], 1, (ours, theirs), went_out, {})
    assert str(refused.value) == message
    assert refused.value.player == at_fault


@pytest.mark.parametrize("theirs, message, at_fault", REFUSED_THEIRS)
def test_a_refused_entry_of_the_side_caught_names_its_player(rulesets, theirs, message, at_fault):
    with pytest.raises(RoundError) as refused:
        score_hand(rulesets["pennies-from-heaven"], 1, (OUT, theirs), "Ann", {})
    assert str(refused.value) == message
    assert refused.value.player == at_fault


def test_melding_exactly_the_board_minimum_gets_on_the_board(rulesets):
    result = score_hand(
        rulesets["pennies-from-heaven"], 1, (SideEntry(US, melded_points=50), SideEntry(THEM)), None, {}
    )
    assert result["Ann & Cy"].points == 50


def test_no_melded_points_is_no_refusal_just_off_the_board(rulesets):
    result = score_hand(rulesets["pennies-from-heaven"], 1, (SideEntry(US, melded_points=0), SideEntry(THEM)), None, {})
    assert result["Ann & Cy"].points == 0 and result["Ann & Cy"].melded == 0


def test_a_side_below_zero_gets_on_the_board_with_15(rulesets):
    """RULES.md: a side below zero needs only 15 points to get on the board, whatever the hand."""
    sides = (SideEntry(US, melded_points=20), SideEntry(THEM))
    result = score_hand(rulesets["pennies-from-heaven"], 1, sides, None, {"Ann & Cy": -100, "Bob & Di": 0})
    assert result["Ann & Cy"].melded == 20
    with pytest.raises(RoundError, match="takes 50"):
        score_hand(rulesets["pennies-from-heaven"], 1, sides, None, {"Ann & Cy": 0, "Bob & Di": 0})


def test_books_not_mentioned_count_as_none_and_the_cards_left_are_kept(rulesets):
    """A side that names only its natural book has no other book: 500 for the book, 100 for a red
    three, 70 melded (seven kings), less the K and 9 left in Cy's hand (10 + 10)."""
    ours = SideEntry(
        US,
        red_threes=1,
        books={"natural": 1},
        melded=parse_hand("K K K K K K K"),
        hands={"Cy": parse_hand("K 9")},
    )
    result = score_hand(rulesets["pennies-from-heaven"], 1, (ours, SideEntry(THEM)), None, {})["Ann & Cy"]
    assert result.books == {"natural": 1, "mixed": 0, "sevens": 0, "wild": 0}
    assert (result.bonus, result.melded, result.deducted, result.points) == (600, 70, 20, 650)
    assert result.cards == parse_hand("K 9")


@pytest.mark.parametrize(
    ("onto", "cards", "valid", "reason"),
    [
        ("K K K K K", "K", True, ""),
        ("K K K K K K", "K", True, ""),
        ("K K K K K", "K K", True, ""),
        ("K K K K K K K", "K", False, "closed at 7"),
        ("K K K K K K", "K K", False, "8 cards"),
    ],
)
def test_a_book_takes_cards_up_to_seven_and_no_more(rulesets, onto, cards, valid, reason):
    verdict = check_layoff(rulesets["pennies-from-heaven"], 1, parse_hand(onto), parse_hand(cards))
    assert verdict.valid is valid, verdict.reasons
    assert reason in " ".join(verdict.reasons)


@pytest.mark.parametrize(
    "card, in_hand, points",
    [
        # RULES.md, Pennies From Heaven: a black 3 in hand costs 100; black 3s cannot be melded and
        # red 3s are not counted as cards (they score as red threes, apart).
        ("3S", True, 100),
        ("3C", True, 100),
        ("3S", False, 0),
        ("3H", True, 0),
        ("3D", False, 0),
        ("K", True, 10),
    ],
)
def test_threes_in_pennies_from_heaven(rulesets, card, in_hand, points):
    from scorekeeper.rules.books import card_value

    ruleset = rulesets["pennies-from-heaven"]
    assert card_value(ruleset, parse_hand(card)[0], ruleset.books, in_hand) == points


def test_going_out_without_any_book_names_every_book_missing(api):
    """Pennies From Heaven (RULES.md): going out takes a natural (red) book, a book of sevens and a
    wild book, and no pile is picked up before the first natural book. Each missing one is named."""
    from test_cousins import TEAMS, new_pfh, side

    gid = new_pfh(api)["id"]
    hand = {"went_out": "Ann", "sides": [side(TEAMS[0], points=200), side(TEAMS[1], points=60)]}
    answer = api.call("POST", f"/api/games/{gid}/rounds", hand, 400)
    assert answer["error"] == (
        "hand 1: Ann & Cy cannot go out without a natural (red) book and a book of sevens and a wild book "
        "(no pile can be picked up before the first natural book)"
    )


def test_a_books_games_json_names_each_sides_players(rulesets):
    from scorekeeper.rules.game import Game
    from scorekeeper.rules.game_json import game_json
    from scorekeeper.rules.setup import Setup

    setup = Setup(rulesets["pennies-from-heaven"], tuple(PLAYERS), 0, teams=(("Ann", "Cy"), ("Bob", "Di")))
    sides: Any = game_json(Game(setup))["sides"]
    assert [(s["name"], s["players"], s["points"]) for s in sides] == [
        ("Ann & Cy", ["Ann", "Cy"], 0),
        ("Bob & Di", ["Bob", "Di"], 0),
    ]


@pytest.mark.parametrize(
    "players, sides, decks",
    [
        (8, 2, 10),  # 6 further players: 3 pairs, 4 + 2 × 3
        (8, 4, 10),  # 2 further sides, but 3 further pairs of players: the more of the two
        (9, 3, 12),  # 7 further players: a pair begun counts, 4 pairs, 4 + 2 × 4
    ],
)
def test_pennies_from_heaven_decks_by_further_pairs_of_players(rulesets, players, sides, decks):
    """RULES.md: 4 decks for two players, plus 2 for each further side or each further 2 players."""
    assert rulesets["pennies-from-heaven"].decks.decks_for(players, sides) == decks
