"""The opt-in rating's model (scorekeeper/rules/rating.py)."""

from __future__ import annotations


def test_a_rating_builds_on_the_games_before():
    """The model's update: each game starts from the rating the games before left, so a player who
    keeps winning rises game after game and the model grows surer of them (sigma falls)."""
    from scorekeeper.rules.rating import RatedGame, rate

    wins = [RatedGame([((1,), 1), ((2,), 2)])] * 3
    after = [rate(wins[:n])[1] for n in (1, 2, 3)]
    assert after[0].mu < after[1].mu < after[2].mu
    assert after[0].sigma > after[1].sigma > after[2].sigma
    assert [a.games for a in after] == [1, 2, 3]
