"""A game as the API answers it (rules/game_json.py), every key, for games worked by hand from RULES.md:
3–9 score 5, 10 J Q K 10, a joker 50; a penny into the bowl for every card caught and every buy; lowest
total after 7 rounds wins and a tie splits the bowl, the odd penny staying for the next game."""

from __future__ import annotations

from support import ruleset_text

from scorekeeper.rules.cards import parse_hand
from scorekeeper.rules.game import Buy, Event, Game, RoundRecord
from scorekeeper.rules.game_json import describe_round, game_json
from scorekeeper.rules.rulesets import parse_ruleset
from scorekeeper.rules.setup import Setup

PLAYERS = ("Ann", "Bob", "Cy", "Di")


def ten_pennies(*events: Event, version: int | None = 3) -> Game:
    """Ann deals round 1; pennies worth 5¢; 1 penny carried in from the night's last game."""
    rules = parse_ruleset(ruleset_text("ten-pennies"), "ten-pennies.toml")
    return Game(Setup(rules, PLAYERS, 0, penny_cents=5, carry_in=1, ruleset_version=version), list(events))


def round_won_by_ann(number: int, bob: str, di: str) -> RoundRecord:
    return RoundRecord(number, number, "Ann", {"Bob": parse_hand(bob), "Cy": parse_hand(""), "Di": parse_hand(di)})


def test_a_game_in_play_after_one_round_and_a_buy():
    game = ten_pennies(
        Buy(1, 1, "Bob"), RoundRecord(2, 1, "Ann", {"Bob": parse_hand("K 7"), "Cy": (), "Di": parse_hand("JKR")})
    )
    nothing = {"cards": [], "points": 0, "pennies": 0, "penalty": 0, "bonus": 0, "cut_bonus": 0}
    assert game_json(game) == {
        "id": 0,
        "ruleset": "ten-pennies",
        "ruleset_version": 3,
        "round": 2,
        "finished": False,
        "version": 2,
        "bowl": 5,  # 1 carried in, Bob's buy, Bob's K and 7, Di's joker
        "penny_cents": 5,
        "decks": 2,
        "players": [
            {"name": "Ann", "seat": 1, "points": 0, "pennies_paid": 0, "buys_left": 10},
            {"name": "Bob", "seat": 2, "points": 15, "pennies_paid": 3, "buys_left": 9},
            {"name": "Cy", "seat": 3, "points": 0, "pennies_paid": 0, "buys_left": 10},
            {"name": "Di", "seat": 4, "points": 50, "pennies_paid": 1, "buys_left": 10},
        ],
        "rounds": [
            {
                "number": 1,
                "dealer": "Ann",
                "went_out": "Ann",
                "corrected": False,
                "buys": {"Ann": 0, "Bob": 1, "Cy": 0, "Di": 0},
                "results": {
                    "Ann": nothing,
                    "Bob": {"cards": ["K", "7"], "points": 15, "pennies": 2, "penalty": 0, "bonus": 0, "cut_bonus": 0},
                    "Cy": nothing,
                    "Di": {"cards": ["JKR"], "points": 50, "pennies": 1, "penalty": 0, "bonus": 0, "cut_bonus": 0},
                },
            }
        ],
        "winners": [],
        "payouts": {},
        "left_in_bowl": 0,
        "money": {},
        "money_cents": {},
        "problems": [],
    }


def test_a_corrected_round_says_so():
    game = ten_pennies(
        round_won_by_ann(1, "K", ""), RoundRecord(2, 1, "Ann", {"Bob": parse_hand("Q"), "Cy": (), "Di": ()})
    )
    rounds = game_json(game)["rounds"]
    assert isinstance(rounds, list) and rounds[0]["corrected"] is True


def test_a_finished_tie_splits_the_bowl_and_the_odd_penny_stays():
    game = ten_pennies(*(round_won_by_ann(number, "K", "5") for number in range(1, 8)), version=None)
    state = game_json(game)
    assert {key: state[key] for key in ("ruleset_version", "round", "finished", "bowl")} == {
        "ruleset_version": None,
        "round": None,
        "finished": True,
        "bowl": 15,  # 1 carried in, 7 pennies from Bob, 7 from Di
    }
    assert (state["winners"], state["payouts"], state["left_in_bowl"]) == (["Ann", "Cy"], {"Ann": 7, "Cy": 7}, 1)
    assert state["money"] == {"Ann": 7, "Bob": -7, "Cy": 7, "Di": -7}
    assert state["money_cents"] == {"Ann": 35, "Bob": -35, "Cy": 35, "Di": -35}
    assert "sides" not in state


def test_what_the_dealer_asks_about_a_round():
    assert describe_round(ten_pennies().setup, 1) == {
        "books": False,
        "word": "round",
        "board_minimum": None,
        "pile": 0,
        "number": 1,
        "dealer": "Ann",
        "first_player": "Bob",
        "contract": "2 sets of 3",
        "wilds": "2s",
        "wild_limit": "at most 1 wild per set",
        "decks": "2 decks",
        "jokers": 4,
        "deal": 11,
    }


def test_what_the_dealer_asks_about_a_hand_of_pennies_from_heaven():
    rules = parse_ruleset(ruleset_text("pennies-from-heaven"), "pennies-from-heaven.toml")
    asked = describe_round(Setup(rules, PLAYERS, 1), 2)
    assert {key: asked[key] for key in ("books", "word", "board_minimum", "pile", "contract", "dealer", "deal")} == {
        "books": True,
        "word": "hand",
        "board_minimum": 90,
        "pile": 15,
        "contract": None,
        "dealer": "Cy",
        "deal": 13,
    }
