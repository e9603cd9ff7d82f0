"""The results card of a game (rules/share.py), worked by hand from RULES.md: a penny into the bowl for
every card caught in hand, the lowest total takes the bowl, a tie splits it and what cannot be split
stays in the bowl; a game by sides is won by the most points."""

from __future__ import annotations

from support import ruleset_text

from scorekeeper.rules.cards import parse_hand
from scorekeeper.rules.game import Game, RoundRecord
from scorekeeper.rules.rulesets import parse_ruleset
from scorekeeper.rules.setup import Setup
from scorekeeper.rules.share import game_card


def a_game(ruleset_id: str, players: tuple[str, ...], rounds: list[RoundRecord], game_id: int = 7) -> Game:
    ruleset = parse_ruleset(ruleset_text(ruleset_id), f"{ruleset_id}.toml")
    return Game(Setup(ruleset, players, 0), rounds, game_id=game_id)


def ann_out(number: int, **hands: str) -> RoundRecord:
    return RoundRecord(number, number, "Ann", {name: parse_hand(cards) for name, cards in hands.items()})


def test_a_tie_splits_the_bowl_and_the_odd_penny_stays():
    """Seven rounds: Ann goes out, Bob is caught with nothing, Cy with a king (10 points, a penny)
    each time. Ann and Bob tie at 0 and split Cy's 7 pennies: 3 each, 1 stays."""
    rounds = [ann_out(number, Bob="", Cy="K") for number in range(1, 8)]
    card = game_card(a_game("ten-pennies", ("Ann", "Bob", "Cy"), rounds), "27 Nov")
    assert card.text() == (
        "Game 7 · Ten Pennies · 27 Nov\n"
        "Ann and Bob win 6 of the bowl's 7 pennies ($0.06)\n"  # the 1 that stays is not won (issue 60)
        "\n"
        "1.  Ann  0  +$0.03\n"
        "1.  Bob  0  +$0.03\n"
        "3.  Cy  70  −$0.07\n"
        "\n"
        "1 penny stays in the bowl for the next game.\n"
    )
    assert card.columns == ("", "Player", "Points", "Money")


def test_one_winner_takes_the_whole_bowl_and_nothing_stays():
    rounds = [ann_out(number, Bob="3", Cy="K") for number in range(1, 8)]
    card = game_card(a_game("ten-pennies", ("Ann", "Bob", "Cy"), rounds))
    assert card.title == "Game 7 · Ten Pennies"
    assert card.headline == "Ann wins the bowl: 14 pennies ($0.14)"
    assert card.rows == (("1.", "Ann", "0", "+$0.14"), ("2.", "Bob", "35", "−$0.07"), ("3.", "Cy", "70", "−$0.07"))
    assert card.notes == ()


def test_a_game_in_play_says_where_it_stands_and_no_money():
    rounds = [ann_out(number, Bob="3", Cy="K") for number in (1, 2, 3)]
    card = game_card(a_game("ten-pennies", ("Ann", "Bob", "Cy"), rounds))
    assert card.text() == "Game 7 · Ten Pennies\nAfter 3 rounds of 7\n\n1.  Ann  0\n2.  Bob  15\n3.  Cy  30\n"
    assert card.columns == ("", "Player", "Points")


def test_two_pennies_that_cannot_be_split_stay():
    """Ann, Bob and Cy tie at 0; Di is caught with 8 cards in all: 2 pennies each, 2 stay."""
    rounds = [ann_out(number, Bob="", Cy="", Di="K K" if number == 7 else "K") for number in range(1, 8)]
    card = game_card(a_game("ten-pennies", ("Ann", "Bob", "Cy", "Di"), rounds))
    assert card.headline == "Ann, Bob and Cy win 6 of the bowl's 8 pennies ($0.06)"
    assert card.notes == ("2 pennies stay in the bowl for the next game.",)
