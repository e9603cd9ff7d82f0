"""A hand of a game played by sides (Pennies From Heaven) from what was typed, side by side:
the JSON of the API and the fields of the hand form both arrive as plain mappings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rules.books import BOOK_KINDS, SideEntry
from ..rules.cards import Card, CardError, parse_hand
from ..rules.game import Game, HandRecord
from ..rules.setup import GameError


def hand_event(game: Game, event_id: int, number: int | None, went_out: str | None, sides: Sequence[Any]) -> HandRecord:
    if number is None:
        if game.current_round is None:
            raise GameError(f"the game is finished: all {game.round_count} hands are recorded")
        number = game.current_round
    out = game.player_named(went_out) if went_out else None
    return HandRecord(event_id, number, out, tuple(side_entry(game, data) for data in sides))


def side_entry(game: Game, data: Any) -> SideEntry:
    if not isinstance(data, Mapping) or not isinstance(data.get("players"), list):
        raise GameError("each side needs its list of players")
    players = tuple(game.player_named(str(name)) for name in data["players"])
    name = " & ".join(players)
    melded_text = data.get("melded")
    points = data.get("melded_points")
    return SideEntry(
        players=players,
        red_threes=_count(data.get("red_threes"), f"{name}: red threes"),
        books=_books(data.get("books") or {}, name),
        melded=_cards(melded_text, f"{name}'s melded cards") if melded_text else None,
        melded_points=None if points is None or points == "" else _count(points, f"{name}: melded points"),
        hands=_by_player(game, data.get("hands"), "cards"),
        piles=_by_player(game, data.get("piles"), "pile"),
        hand_points=_points_by_player(game, data.get("hands"), "cards"),
        pile_points=_points_by_player(game, data.get("piles"), "pile"),
    )


def _books(given: Any, side: str) -> dict[str, int]:
    if not isinstance(given, Mapping):
        raise GameError(f"{side}: books must be counts by kind ({', '.join(BOOK_KINDS)})")
    # A kind the game does not know is refused by the rules engine (rules/books.py), naming the side.
    return {str(kind): _count(count, f"{side}: {kind} books") for kind, count in given.items()}


MAX_COUNT = 100_000  # far beyond any hand (a side's books, threes or points); keeps every sum storable


def _count(value: Any, what: str) -> int:
    if value is None or value == "":
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise GameError(f"{what} must be a whole number from 0 to {MAX_COUNT}")
    return value


def _cards(text: Any, whose: str) -> tuple[Card, ...]:
    if text is not None and not isinstance(text, str):
        raise GameError(f"{whose} must be a string of cards")
    try:
        return parse_hand(text or "")
    except CardError as error:
        raise GameError(f"{whose}: {error}", None) from None


def _by_player(game: Game, given: Any, what: str) -> dict[str, tuple[Card, ...]]:
    """Hands or piles given as cards (a string); the ones given as points are read by _points_by_player."""
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise GameError(f"{what}s must be given by player name")
    return {
        game.player_named(str(n)): _cards(text, f"{n}'s {what}") for n, text in given.items() if not _is_points(text)
    }


def _points_by_player(game: Game, given: Any, what: str) -> dict[str, int]:
    """Hands or piles given as the points the table counted: a whole number."""
    if not isinstance(given, Mapping):
        return {}
    return {
        game.player_named(str(n)): _count(value, f"{n}'s {what} points")
        for n, value in given.items()
        if _is_points(value)
    }


def _is_points(value: Any) -> bool:
    """A whole number is points counted; text is cards ("4" is the card, not 4 points)."""
    return isinstance(value, int) and not isinstance(value, bool)
