"""Reading a game as the requests need it: its stored row and the engine's replay of its events, and
a round or hand being typed read into an entry (what a preview shows and a command records)."""

from __future__ import annotations

import json
import threading
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.cards import Card, CardError, parse_hand
from ..rules.game import Event, Game, RoundRecord
from ..rules.night import money_moved
from ..rules.rulesets import Ruleset
from ..rules.setup import GameError, Setup
from ..rules.share import ResultsCard, game_card
from ..store import NotFound, Store
from ..store.games import event_row
from ..store.rows import GameRow
from .catalog import Catalog, UnknownRuleset, kept_ruleset
from .events import event_from_row
from .history import describe_change
from .kept import KeptLast
from .side_input import hand_event


class GameNotFound(LookupError):
    pass


class MissingRuleset(LookupError):
    """A stored game whose ruleset is no longer known: a house ruleset file was removed."""

    def __init__(self, game_id: int, ruleset_id: str) -> None:
        super().__init__(
            f"game {game_id} is played under the house ruleset {ruleset_id!r}, whose file is gone: put the TOML "
            f'file with id = "{ruleset_id}" back into instance/rulesets/ and restart the app (its entries '
            "are all kept; the JSON export works meanwhile)"
        )
        self.game_id = game_id
        self.ruleset_id = ruleset_id


@dataclass(frozen=True)
class LoadedGame:
    """A game as one request needs it: its stored row and the engine's replay of its events."""

    row: GameRow
    game: Game
    times: Mapping[int, str]  # when each event was entered

    def money_moved(self) -> dict[str, int]:
        """How a finished game's money moved since it ended, in cents (a correction, or a carry that
        a correction in an earlier game changed): what the pages say."""
        kept = self.row["money_at_end"]
        return money_moved(self.game, json.loads(kept) if kept else None)

    def results_card(self) -> ResultsCard:
        """The game's results card, made once for each kept replay (a replayed game never changes:
        an entry makes a new one): at a game's end every phone asks for the page and the picture."""
        with _CARDS_LOCK:
            card = _CARDS.get(self.game)
        if card is None:
            card = game_card(self.game)
            with _CARDS_LOCK:
                _CARDS[self.game] = card
        return card


_CARDS: weakref.WeakKeyDictionary[Game, ResultsCard] = weakref.WeakKeyDictionary()
_CARDS_LOCK = threading.Lock()


def load_game(store: Store, catalog: Catalog, game_id: int) -> LoadedGame:
    """The game as stored, its row and its entries read in one snapshot, so its version is the
    version of exactly these entries. A stored entry the rules refuse is passed over and named in
    ``game.problems``: the game still loads, and its pages say what is wrong."""
    try:
        with store.reading():
            row = store.game(game_id)
            entries = store.event_texts(game_id)
    except NotFound:
        raise GameNotFound(f"there is no game {game_id}") from None
    game = replayed(game_setup(catalog, row), entries, row["id"], row["revision"])
    return LoadedGame(row, game, {event_id: created_at for event_id, _, _, created_at in entries})


# A replay is a pure function of the setup and the entries as stored: kept under exactly those, so a
# night of twenty games, eight phones on one game or a page opened again replay nothing.
REPLAYS: KeptLast[Game] = KeptLast(256)


def replayed(setup: Setup, entries: Sequence[tuple[int, str, str, str]], game_id: int, version: int) -> Game:
    # The ruleset by identity: the catalog hands out one object per ruleset version, and the kept
    # game holds it, so its id is not reused while the key is kept.
    seats = (setup.players, setup.first_dealer, setup.penny_cents, setup.carry_in, setup.teams)
    key = (id(setup.ruleset), setup.ruleset_version, seats, tuple(entries), game_id, version)

    def replay() -> Game:
        events = [event_from_row(event_row(entry)) for entry in entries]
        return Game(setup, events, game_id, version, tolerant=True)

    return REPLAYS.get(key, replay)


def ruleset_of(catalog: Catalog, row: GameRow) -> Ruleset:
    """The rules a game is played under: the version kept when it started (never the ruleset as it
    is now: an edited house ruleset or a new release does not score a game again)."""
    document = row.get("ruleset_document")
    if document is not None:
        return kept_ruleset(document)
    try:
        return catalog.get(row["ruleset"])
    except UnknownRuleset:
        raise MissingRuleset(row["id"], row["ruleset"]) from None


def game_setup(catalog: Catalog, row: GameRow, carry: int | None = None) -> Setup:
    sides = row["sides"]
    return Setup(
        ruleset=ruleset_of(catalog, row),
        players=tuple(row["players"]),
        first_dealer=row["first_dealer"],
        penny_cents=row["penny_cents"],
        carry_in=row["carry_in"] if carry is None else carry,
        teams=tuple(tuple(side) for side in sides) if len(sides) < len(row["players"]) else (),
        ruleset_version=row.get("ruleset_version"),
    )


def next_game_defaults(store: Store, catalog: Catalog, night_id: int) -> dict[str, object]:
    """A new game of the night, ready to play: its last game's players in their seats, ruleset, penny
    value and sides, the deal moved on one seat to the left (nothing before the night's first game)."""
    game_ids = store.night_game_ids(night_id)
    if not game_ids:
        return {}
    try:
        last = load_game(store, catalog, game_ids[-1]).game
    except MissingRuleset:
        return {}
    setup = last.setup
    return {
        "players": list(setup.players),
        "ruleset": setup.ruleset.id,
        "penny_cents": setup.penny_cents,
        "first_dealer": str((setup.first_dealer + 1) % len(setup.players)),
        "teams": str(len(setup.teams)) if setup.teams else "0",
    }


def preview_round(
    game: Game,
    went_out: str,
    caught: Mapping[str, str],
    number: int | None = None,
    at_once: bool = False,
    cut_exactly: str | None = None,
) -> Game:
    """The game as it would be after this round, without saving anything."""
    return game.with_event(round_event(game, number, went_out, caught, at_once, cut_exactly))


@dataclass(frozen=True)
class HandPreview:
    """A hand being entered, scored side by side: what each side scores, and why the hand as a whole
    would be refused yet (with the player it names), if it would."""

    number: int
    scores: dict[str, int]
    totals: dict[str, int]  # each side's game total with this hand
    problem: str | None = None
    player: str | None = None


def preview_hand(game: Game, went_out: str | None, sides: Sequence[Any], number: int | None = None) -> HandPreview:
    """The hand's scores as entered so far, without saving anything. What cannot be read at all
    (a bad card, a count that is not a number) is refused with GameError as on Save."""
    record = hand_event(game, next_id(game), number, went_out, sides)
    before = game.totals_before(record.round)
    problem, player = None, None
    try:
        results = dict(game.with_event(record).rounds[record.round - 1].results)
    except GameError as error:
        results, problem, player = dict(game.hand_as_entered(record)), str(error), error.player
    scores = {name: result.points for name, result in results.items()}
    totals = {name: before[name] + points for name, points in scores.items()}
    return HandPreview(record.round, scores, totals, problem, player)


def round_event(
    game: Game,
    number: int | None,
    went_out: str,
    caught: Mapping[str, str],
    at_once: bool = False,
    cut_exactly: str | None = None,
) -> RoundRecord:
    """A round as entered (``cut_exactly``: who cut the deck exactly, "" or None for nobody)."""
    if number is None:
        if game.current_round is None:
            raise GameError(f"the game is finished: all {game.round_count} rounds are recorded")
        number = game.current_round
    out = game.player_named(went_out) if went_out else ""
    if not out:
        raise GameError("say who went out")
    cutter = game.player_named(cut_exactly) if cut_exactly else None
    return RoundRecord(next_id(game), number, out, parse_caught(game, caught), at_once, cutter)


def parse_caught(game: Game, caught: Mapping[str, str]) -> dict[str, tuple[Card, ...]]:
    """Each player's typed hand as cards; a bad token is reported with the player's name."""
    hands = {}
    for player, text in caught.items():
        name = game.player_named(player)
        try:
            hands[name] = parse_hand(text or "")  # scoring caught cards never needs their suits
        except CardError as error:
            raise GameError(f"{name}'s cards: {error}", name) from None
    return hands


def next_id(game: Game) -> int:
    """The id an entry made now would have in this game's replay (the store numbers it anew)."""
    return max((event.id for event in game.events), default=0) + 1


def stored_events(store: Store, game_id: int) -> list[Event]:
    return [event_from_row(row) for row in store.events(game_id)]


def latest_change(game: Game) -> str:
    """The game's latest entry in table words ("Eve's buy in round 2"): what another phone changed."""
    return describe_change(game, game.events[-1]) if game.events else "a change of the bowl carried in"


def stale_message(loaded: LoadedGame) -> str:
    """What a refused stale write tells the scorekeeper: what changed, and what to do."""
    latest = latest_change(loaded.game)
    return (
        f"Not saved: this game changed on another device since you opened the page "
        f"(latest entry: {latest}). Check the scorepad, then enter it again if it is still needed."
    )
