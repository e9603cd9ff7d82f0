"""A night's games in order: the pennies a tie leaves in a bowl carry into the next game of the
night that plays for a bowl (a Ten Pennies ruleset); games that play for no pennies are passed over.

A leftover keeps the value it was paid in at: it carries only into a game whose penny is worth the
same. Carried into a game worth more, paying it out would create money (a 1¢ penny paid out at 5¢);
so where the next bowl game sets another penny value, the leftover stays in its bowl, shown as such.

This is the one place the carry is worked out; the store keeps each game's carry-in so that
loading a game never replays the games before it (see ``scorekeeper.table``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from .game import Event, Game
from .setup import Setup


@dataclass(frozen=True)
class Pending:
    """The leftover waiting for the night's next bowl game, and what one of its pennies is worth."""

    pennies: int = 0
    penny_cents: int = 1


NOTHING = Pending()


def passes_over(setup: Setup) -> bool:
    """A game that plays for no bowl (Ten Card Rummy, Pennies From Heaven): a leftover passes over
    it unchanged, and nothing in it can change a carry."""
    return not setup.ruleset.is_penny_game


def carry_in(setup: Setup, pending: Pending) -> int:
    """What a game finds in its bowl at the start: the night's leftover, if it plays for a bowl at
    the same penny value."""
    if passes_over(setup) or pending.penny_cents != setup.penny_cents:
        return 0
    return pending.pennies


def pending_after(game: Game, pending: Pending) -> Pending:
    """The leftover once ``game`` is counted: a game that plays for a bowl passes on its own leftover
    (0 until it ends: the pennies sit in its bowl); others pass the earlier leftover over."""
    if passes_over(game.setup):
        return pending
    return Pending(game.carry_out, game.setup.penny_cents)


def replay_night(games: Iterable[tuple[Setup, Sequence[Event], int]], pending: Pending = NOTHING) -> Iterator[Game]:
    """Each stored game (setup, events, id) replayed in night order with the carry passed forward
    (an entry the rules refuse is passed over, as when the game is loaded)."""
    for setup, events, game_id in games:
        game = Game(replace(setup, carry_in=carry_in(setup, pending)), events, game_id, tolerant=True)
        pending = pending_after(game, pending)
        yield game


@dataclass(frozen=True)
class Leftover:
    """Pennies a finished game's tie left in its bowl, and where they went: into a later game's
    bowl (``into``), or nowhere yet (``into`` None), with why in table words."""

    game_id: int
    pennies: int
    penny_cents: int
    into: int | None
    why: str
    waiting: bool = False  # the night is open: its next game that plays for a bowl will take them


def leftovers(games: Sequence[Game], night_open: bool = False) -> list[Leftover]:
    """Each finished bowl game's leftover and where it went, the games in night order (each with the
    carry-in the store keeps for it): the same rule as ``carry_in``, said in words. While the night is
    open the last one waits for a game still to come (issue 60: it was said to stay for good)."""
    found: list[Leftover] = []
    waiting: tuple[Game, Pending] | None = None
    for game in games:
        if passes_over(game.setup):
            continue
        if waiting is not None:
            source, pending = waiting
            if carry_in(game.setup, pending):
                found.append(Leftover(source.id, pending.pennies, pending.penny_cents, game.id, f"into game {game.id}"))
            else:
                found.append(
                    Leftover(
                        source.id,
                        pending.pennies,
                        pending.penny_cents,
                        None,
                        f"game {game.id} plays at {game.setup.penny_cents}¢",
                    )
                )
            waiting = None
        if game.finished and game.carry_out:
            waiting = (game, pending_after(game, NOTHING))
    if waiting is not None:
        source, pending = waiting
        why = "the night's next game that plays for a bowl takes it" if night_open else "no later game plays for a bowl"
        found.append(Leftover(source.id, pending.pennies, pending.penny_cents, None, why, waiting=night_open))
    return found


def money_cents(game: Game) -> tuple[int, ...]:
    """Each seat's money in ``game``, in cents: its pennies at the game's own penny value."""
    return tuple(game.money_cents(name) for name in game.players)


def money_moved(game: Game, at_end: Sequence[int] | None) -> dict[str, int]:
    """How each player's money in a finished game moved since it ended (``at_end``: each seat's
    cents then) — a correction counts as if the entry had been right all along, so a finished game's
    money can move, and the pages say so. Only the players whose money moved, in cents."""
    if not game.finished or at_end is None or len(at_end) != len(game.players):
        return {}
    now = money_cents(game)
    return {name: now[seat] - at_end[seat] for seat, name in enumerate(game.players) if now[seat] != at_end[seat]}
