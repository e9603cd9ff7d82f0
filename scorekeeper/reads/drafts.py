"""Hands players enter on their own phones (issue 27): drafts, never entries. How a draft is checked
and scored, and the drafts a round form or the game page shows (a draft for a round saved since is
a correction request)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rules.cards import CardError, parse_hand
from ..rules.game import Game, HandRecord, Record
from ..rules.scoring import RoundError, score_draft
from ..rules.setup import GameError
from ..store import Store
from ..store.rows import DraftRow
from .catalog import Catalog
from .loading import load_game, parse_caught

MAX_DRAFT_TEXT = 200  # far more than any hand typed as cards
MAX_DRAFT_POINTS = 10_000  # a Pennies From Heaven hand left in hand, counted by the player
MAX_SEEN_DRAFTS = 8  # a round form's seats
SEEN_GARBLED = "the drafts this form showed came garbled: reload the page"


class DraftRefused(GameError):
    """A draft the game as stored does not take (a conflict, 409): its round saved already or not
    begun, another phone's player. A hand the rules refuse is a GameError, as on Save (400)."""


def check_draft_round(game: Game, number: int, correction: bool) -> None:
    """A draft is for the round in play; a correction request for a round already saved."""
    word = game.ruleset.round_word
    played = len(game.rounds)
    if number > played + 1 or (game.finished and number > played):
        if game.finished:
            raise DraftRefused(f"the game is over: there is no {word} {number} to enter a hand for")
        raise DraftRefused(f"{word} {number} has not begun: this is {word} {played + 1}")
    if number < 1:
        raise DraftRefused(f"there is no {word} {number}")
    if number <= played and not correction:
        raise DraftRefused(
            f"{word} {number} was saved already: tell the scorekeeper, or send it as a correction request"
        )


def draft_result(game: Game, number: int, player: str, cards: str | None, points: int | None) -> tuple[int, int]:
    """(points, pennies) of a draft for round ``number``, or GameError saying what is wrong with it."""
    if cards is not None and len(cards) > MAX_DRAFT_TEXT:
        raise GameError(f"a hand is at most {MAX_DRAFT_TEXT} characters, not {len(cards)}", player)
    if game.ruleset.by_sides:
        if points is None or not 0 <= points <= MAX_DRAFT_POINTS:
            raise GameError(f"say the points left in {player}'s hand (0 to {MAX_DRAFT_POINTS})", player)
        return points, 0
    if cards is None:
        raise GameError(f"say the cards {player} was caught with (nothing, if none)", player)
    hand = parse_caught(game, {player: cards})[player]
    try:
        buys = game.buys_in_round(number)[player]
        result = score_draft(game.ruleset, game.setup.decks, player, hand, buys, number, game.setup.jokers)
    except RoundError as error:  # in the words a Save of the round would use
        raise GameError(f"{game.ruleset.round_word} {number}: {error}", player) from None
    return result.points, result.pennies


def scored_draft(game: Game, number: int, row: DraftRow) -> dict[str, Any]:
    """A kept draft with its points as the rules score it now (a buy since may change them)."""
    try:
        points, pennies = draft_result(game, number, row["player"], row["cards"], row["points"])
    except GameError:
        points, pennies = None, None  # no longer possible (an undone buy): shown, not scored
    return {**row, "points": row["points"] if game.ruleset.by_sides else points, "pennies": pennies}


def drafts(store: Store, catalog: Catalog, game_id: int, number: int) -> list[dict[str, Any]]:
    """The drafts of a round (for a round saved: its correction requests), each scored as the rules
    score it now."""
    game = load_game(store, catalog, game_id).game
    return [scored_draft(game, number, row) for row in store.drafts(game_id, number)]


def correction_requests(store: Store, game: Game) -> list[dict[str, Any]]:
    """The hands players' phones sent for rounds already saved, for the scorekeeper to look at."""
    return [
        {**scored_draft(game, row["round"], row), "round": row["round"]}
        for row in store.correction_requests(game.id, len(game.rounds))
    ]


# --- what a Save does with the drafts of its round (issue 58) ---------------------------------------


def seen_drafts(value: object) -> dict[str, str]:
    """The drafts a round form (or an API client) showed when it saved, player → what the phone had
    sent; ValueError when they are not a short map of hands."""
    if not isinstance(value, dict) or len(value) > MAX_SEEN_DRAFTS:
        raise ValueError(SEEN_GARBLED)
    for player, hand in value.items():
        if not isinstance(player, str) or not isinstance(hand, str) or len(hand) > MAX_DRAFT_TEXT:
            raise ValueError(SEEN_GARBLED)
    return dict(value)


def draft_done_with(record: Record, row: DraftRow, seen: Mapping[str, str]) -> bool:
    """A draft of the round just saved is done with when the Save took it, or when the form that saved
    showed it (the scorekeeper chose otherwise). One that reached the server after the form last looked
    is kept, as a correction request: a hand tapped just before Save is never dropped unseen."""
    sent = row["cards"] if row["cards"] is not None else str(row["points"])
    return _same_hand(seen.get(row["player"]), sent) or _taken(record, row)


def _same_hand(one: str | None, other: str) -> bool:
    return one is not None and one.upper().split() == other.upper().split()


def _taken(record: Record, row: DraftRow) -> bool:
    player = row["player"]
    if isinstance(record, HandRecord):
        return any(side.hand_points.get(player) == row["points"] for side in record.sides if player in side.players)
    try:
        sent = sorted(str(card) for card in parse_hand(row["cards"] or ""))
    except CardError:
        return False
    return sent == sorted(str(card) for card in record.caught.get(player, ()))
