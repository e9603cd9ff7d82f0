"""An opt-in skill rating (issue 29) from the order of finish of each finished game, by openskill's
Plackett–Luce model (MIT; Weng–Lin, not the patented TrueSkill). Pure: the games go in, in the order
they were played, and the ratings come out, so a correction of an old game flows through by
rating the games again."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()


@dataclass(frozen=True)
class RatedGame:
    """A finished game as the rating sees it: each side's players and its place (1 first; equal
    places are a tie). Players left out of the rating are not in it."""

    sides: Sequence[tuple[Sequence[int], int]]


@dataclass(frozen=True)
class Rating:
    mu: float  # the skill the model believes
    sigma: float  # how unsure it is (a new player: 25 ± 8.3)
    games: int


def rate(games: Iterable[RatedGame]) -> dict[int, Rating]:
    """Every player's rating after the games, in the order played. A game with fewer than two
    sides rated (everyone else left out) changes nothing."""
    ratings: dict[int, Rating] = {}
    for game in games:
        sides = [(players, place) for players, place in game.sides if players]
        if len(sides) < 2:
            continue
        teams = [[_model_rating(ratings.get(player)) for player in players] for players, _ in sides]
        rated = MODEL.rate(teams, ranks=[float(place) for _, place in sides])
        for (players, _), team in zip(sides, rated, strict=True):
            for player, after in zip(players, team, strict=True):
                before = ratings.get(player)
                ratings[player] = Rating(after.mu, after.sigma, (before.games if before else 0) + 1)
    return ratings


def _model_rating(rating: Rating | None) -> PlackettLuceRating:
    return MODEL.rating() if rating is None else MODEL.rating(mu=rating.mu, sigma=rating.sigma)


def new_player() -> Rating:
    start = MODEL.rating()
    return Rating(start.mu, start.sigma, 0)
