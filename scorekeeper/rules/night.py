"""A night's games in order: the pennies a tie leaves in a bowl carry into the next game of the
night that plays for a bowl (a Ten Pennies ruleset); games that play for no pennies are passed over.

This is the one place the carry is worked out; the store keeps each game's carry-in so that
loading a game never replays the games before it (see ``scorekeeper.table``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from .game import Event, Game, Setup
from .rulesets import Ruleset


def carry_in(ruleset: Ruleset, pending: int) -> int:
    """What a game finds in its bowl at the start: the night's leftover, if it plays for a bowl."""
    return pending if ruleset.is_penny_game else 0


def pending_after(game: Game, pending: int) -> int:
    """The leftover waiting for the next bowl game once ``game`` is counted: a game that plays for
    a bowl passes on its own leftover (0 until it ends: the pennies sit in its bowl); others pass it over."""
    return game.carry_out if game.ruleset.is_penny_game else pending


def replay_night(games: Iterable[tuple[Setup, Sequence[Event], int]], pending: int = 0) -> Iterator[Game]:
    """Each game (setup, events, id) replayed in night order with the carry passed forward."""
    for setup, events, game_id in games:
        game = Game(replace(setup, carry_in=carry_in(setup.ruleset, pending)), events, game_id)
        pending = pending_after(game, pending)
        yield game
