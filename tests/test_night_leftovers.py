"""A night's leftovers in words, from the rules engine alone (rules/night.py): where a tie's odd
pennies went, game by game (RULES.md: they carry into the night's next game that plays for a bowl
at the same penny value; games that play for no bowl are passed over)."""

import pytest

from scorekeeper.rules.cards import parse_hand
from scorekeeper.rules.game import RoundRecord
from scorekeeper.rules.night import Leftover, leftovers, money_moved, replay_night
from scorekeeper.rules.setup import Setup

PLAYERS = ("Ann", "Bob", "Cy", "Di")


def ten_pennies_rounds(di_caught: str, rounds: int = 7) -> list[RoundRecord]:
    """Ann goes out every round; Bob and Cy are caught with nothing, Di with ``di_caught``: Ann, Bob
    and Cy tie on 0 and split the bowl three ways."""
    hands = {"Bob": (), "Cy": (), "Di": parse_hand(di_caught)}
    return [RoundRecord(n, n, "Ann", dict(hands)) for n in range(1, rounds + 1)]


def ten_card_rummy_rounds() -> list[RoundRecord]:
    return [RoundRecord(n, n, "Ann", {"Bob": (), "Cy": (), "Di": ()}) for n in range(1, 12)]


# Di caught with 5 cards a round: a bowl of 35, three winners take 11 each, 2 pennies are left.
TIE = ten_pennies_rounds("5 5 5 5 5")
# Di caught with 3 cards a round: 21, three winners take 7 each, nothing left.
EVEN = ten_pennies_rounds("5 5 5")
# Everyone but Ann caught with a card each round: Ann alone takes the bowl, whatever it holds.
SOLE = [RoundRecord(n, n, "Ann", {name: parse_hand("5") for name in ("Bob", "Cy", "Di")}) for n in range(1, 8)]


def night(rulesets, *games):
    """The games of a night in order: (ruleset id, events, penny value in cents)."""
    stored = [
        (Setup(rulesets[ruleset], PLAYERS, 0, penny_cents=cents), events, game_id)
        for game_id, (ruleset, events, cents) in enumerate(games, start=1)
    ]
    return list(replay_night(stored))


CASES = [
    # A tie's 2 pennies go into the next game.
    ([("ten-pennies", TIE, 1), ("ten-pennies", SOLE, 1)], [Leftover(1, 2, 1, 2, "into game 2")]),
    # ... passing over a Ten Card Rummy game, into the bowl game after it.
    (
        [("ten-pennies", TIE, 5), ("ten-card-rummy", ten_card_rummy_rounds(), 5), ("ten-pennies", SOLE, 5)],
        [Leftover(1, 2, 5, 3, "into game 3")],
    ),
    # A next game worth more per penny does not take them: they stay in their bowl, said why.
    ([("ten-pennies", TIE, 1), ("ten-pennies", EVEN, 5)], [Leftover(1, 2, 1, None, "game 2 plays at 5¢")]),
    # The night's last bowl game: nothing later to go into.
    ([("ten-pennies", EVEN, 1), ("ten-pennies", TIE, 1)], [Leftover(2, 2, 1, None, "no later game plays for a bowl")]),
    (
        [("ten-pennies", TIE, 1), ("ten-card-rummy", ten_card_rummy_rounds(), 1)],
        [Leftover(1, 2, 1, None, "no later game plays for a bowl")],
    ),
    # A game that ends with nothing left, or has not ended, leaves nothing to say.
    ([("ten-pennies", EVEN, 1), ("ten-pennies", EVEN, 1)], []),
    ([("ten-pennies", ten_pennies_rounds("5 5 5 5 5", rounds=6), 1), ("ten-pennies", EVEN, 1)], []),
    # Two ties in a row: each game's own leftover; the second bowl held 35 + 2, split three ways.
    (
        [("ten-pennies", TIE, 1), ("ten-pennies", TIE, 1), ("ten-pennies", SOLE, 1)],
        [Leftover(1, 2, 1, 2, "into game 2"), Leftover(2, 1, 1, 3, "into game 3")],
    ),
]


@pytest.mark.parametrize("games, expected", CASES)
def test_each_leftover_says_where_it_went(rulesets, games, expected):
    assert leftovers(night(rulesets, *games)) == expected


# --- money moved after a game ended ---------------------------------------------------------------
# EVEN at 1¢: Ann, Bob and Cy take 7 each; Di paid 3 pennies a round for 7 rounds.
EVEN_MONEY = [7, 7, 7, -21]


@pytest.mark.parametrize(
    "at_end, moved",
    [
        (EVEN_MONEY, {}),
        ([7, 5, 7, -19], {"Bob": 2, "Di": -2}),  # the money when it ended; a correction moved 2¢ since
        (None, {}),  # ended before the app kept the money at the end: nothing to compare with
        ([7, 7, 7], {}),  # kept for another seating: not compared
    ],
)
def test_money_moved_since_the_game_ended(rulesets, at_end, moved):
    (game,) = night(rulesets, ("ten-pennies", EVEN, 1))
    assert money_moved(game, at_end) == moved


def test_a_game_in_play_has_no_money_moved(rulesets):
    (game,) = night(rulesets, ("ten-pennies", ten_pennies_rounds("5 5 5", rounds=6), 1))
    assert money_moved(game, [0, 0, 0, 0]) == {}
