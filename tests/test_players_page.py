"""A player's page in words (scorekeeper/players/page.py), checked in Python: plurals, money only
where a game plays for money, the round word of the ruleset, the rating's aside."""

from __future__ import annotations

from typing import Any

from scorekeeper.players.page import Figure, game_lines, record_figures, ruleset_lines

RECORD: dict[str, Any] = {
    "games": 3,
    "wins": 2,
    "win_rate": 2 / 3,
    "longest_streak": 1,
    "money_cents": -14,
    "went_out": 1,
    "buys_per_game": 1.25,
    "rounds": 21,
}


def figures(record: dict[str, Any], ruleset=None, rating=None) -> dict[str, Figure]:
    return {f.term: f for f in record_figures(record, ruleset, rating, lambda name: f"/versus/{name}")}


def test_the_record_in_table_words():
    said = figures(RECORD)
    assert [f.term for f in said.values()] == [
        "Games",
        "Wins",
        "Longest winning streak",
        "Money",
        "Went out",
        "Buys a game",
    ]
    assert (said["Wins"].value, said["Wins"].aside) == ("2", "(67%)")
    assert said["Longest winning streak"].value == "1 game"
    assert (said["Money"].value, said["Money"].tone) == ("−$0.14", "minus")
    assert (said["Went out"].value, said["Went out"].aside) == ("1 time", "in 21 rounds")
    assert said["Buys a game"].value == "1.3"  # a half rounds up, as at a table (Jinja's round said 1.2)


def test_no_finished_game_no_figures():
    assert figures(RECORD | {"games": 0, "wins": 0, "win_rate": None}) == {}


def test_a_ruleset_s_own_words_and_no_money_where_none_is_played(rulesets):
    pfh = rulesets["pennies-from-heaven"]
    record = RECORD | {
        "points_per_round": 31.5,
        "best_round": -50,
        "worst_round": 120,
        "hardest_round": {"round": 3, "contract": "", "cards": 1, "times": 2},
        "toughest_opponent": "O'Neil",
    }
    said = figures(record, pfh)
    assert "Money" not in said  # Pennies From Heaven plays for points, not a bowl
    word = pfh.round_word
    assert said[f"Points a {word}"].value == "31.5"
    assert (said[f"Best {word}"].value, said[f"Worst {word}"].value) == ("−50", "120")
    assert said["Hardest contract"].value == f"{word.capitalize()} 3: 1 card caught in 2 games"
    assert (said["Toughest opponent"].value, said["Toughest opponent"].link) == ("O'Neil", "/versus/O'Neil")


def test_the_rating_says_when_it_is_still_counting():
    rating = {"left_out": False, "mu": 27.345, "sigma": 2.04, "games": 1, "up_to_date": False}
    said = figures(RECORD, rating=rating)["Rating (every game)"]
    assert (said.value, said.aside) == ("27.3", "± 4.1 after 1 rated game; the latest games are being counted")
    assert "Rating (every game)" not in figures(RECORD, rating={"left_out": True})


def test_the_games_and_the_rulesets_added_up(rulesets):
    stats: Any = {"ruleset": "ten-pennies", "games": 1, "wins": 0, "points": 28, "rounds": 7, "money": 30}
    stats |= {"lowest_round": 0, "highest_round": 14, "player_id": 1}
    gone = stats | {"ruleset": "grandma's-own", "rounds": 0}  # a ruleset no longer installed
    (ten, old) = ruleset_lines([stats, gone], rulesets)
    assert (ten.name, ten.words) == (
        "Ten Pennies",
        "1 finished game, 0 won, money +$0.30, 4.0 points a round. Best round 0, worst 14 (fewer points is better).",
    )
    assert old.name == "grandma's-own" and "—" in old.words
    game: Any = {"game_id": 9, "ruleset": "ten-pennies", "created_at": "2026-11-26T20:00:00+00:00", "day": "2026-11-26"}
    game |= {"points": 1, "rounds": 1, "finished": 0, "won": 0, "money": 0}
    (line,) = game_lines([game], rulesets)
    assert (line.name, line.words) == ("Game 9", "Ten Pennies · 2026-11-26 · 1 point in 1 round · in progress")
    (won,) = game_lines([game | {"finished": 1, "won": 1, "money": -3}], rulesets)
    assert won.words.endswith("· won · −$0.03")
