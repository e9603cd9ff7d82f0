"""The writes of a game: start one, play it again, a buy, a round or a hand (new or corrected), an
undo. Each is a command for the runner: the lock it needs, and its work, done under the write lock
on the game as stored then, never on a copy a request loaded before another request wrote."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..reads.catalog import Catalog
from ..reads.events import event_payload
from ..reads.loading import load_game, next_id, round_event
from ..reads.side_input import hand_event
from ..rules.game import Buy, Event, Game, Void
from ..rules.names import look_alike_key
from ..rules.night import carry_in
from ..rules.rulesets import ruleset_document
from ..rules.setup import GameError, Setup, clean_name, name_key
from ..store import NotFound, Store
from .derived import carry_forward, night_pending, save_derived, settle_drafts
from .locks import Lock, game_lock, night_lock
from .pins import hash_new_pin
from .runner import NeedsConfirming


class AlreadyRecorded(GameError):
    """A new round or hand for one that is recorded meanwhile (two phones, or a retry after a lost
    answer): never turned into a correction unseen."""

    def __init__(self, game: Game, number: int) -> None:
        word = game.ruleset.round_word
        super().__init__(f"{word} {number} is already recorded: nothing was saved. Correct {word} {number} instead")
        self.number = number
        self.word = word
        self.version = game.version
        self.game_id = game.id


# --- starting a game --------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class StartGame:
    """Seat the players; with no first dealer named, the app draws one at random. In a night, the
    game joins it with the carry waiting there; a PIN given in a night locks the night."""

    ruleset_id: str
    names: Sequence[str]
    first_dealer: str | None = None
    penny_cents: int = 1
    teams: Sequence[Sequence[str]] | None = None
    night_id: int | None = None
    pin: str | None = None
    rng: random.Random | None = None

    def lock(self, store: Store) -> Lock | None:
        """Adding a game to a locked night changes the night's money: the night's lock."""
        if self.night_id is None:
            return None
        try:
            return night_lock(store.night(self.night_id))
        except NotFound:
            return None  # said below, in the words of a game that cannot start

    def apply(self, store: Store, catalog: Catalog) -> int:
        ruleset = catalog.get(self.ruleset_id)
        players = tuple(clean_name(name) for name in self.names)
        dealer_seat = _first_dealer_seat(players, self.first_dealer, self.rng)
        sides = tuple(tuple(clean_name(name) for name in team) for team in self.teams or ())
        setup = Setup(ruleset, players, dealer_seat, self.penny_cents, teams=sides)  # validates names, teams, penny
        check_known_look_alikes(store, players)
        return seat(store, catalog, setup, self.night_id, _pin_hash(self.pin) if self.pin else None)


@dataclass(frozen=True)
class Rematch:
    """The same players in the same seats, the deal moved on one seat to the left, the same ruleset
    (the version the game kept, unless ``newer_rules``), penny value, teams and night (if it is
    still open) and the same lock: (its id, whether it is
    new). A game is played again once: a second rematch of it (Back, then Rematch; a second phone)
    is the one already made."""

    game_id: int
    newer_rules: bool = False  # play the ruleset's current version, not the one the game kept

    def lock(self, store: Store) -> Lock | None:
        return game_lock(store, store.game(self.game_id))

    def apply(self, store: Store, catalog: Catalog) -> tuple[int, bool]:
        loaded = load_game(store, catalog, self.game_id)
        game, row = loaded.game, loaded.row
        if not game.finished:
            raise GameError(
                f"a rematch starts when the game is finished: {game.ruleset.round_word} {game.current_round} is next"
            )
        made = store.rematch_of(row["id"])
        if made is not None:
            return made, False
        # The carry into its bowl is seat()'s to work out (a night's waiting carry, else none).
        setup = replace(game.setup, first_dealer=(game.setup.first_dealer + 1) % len(game.players))
        if self.newer_rules:  # the scorekeeper chose the house rules as they are now
            setup = replace(setup, ruleset=catalog.get(game.ruleset.id))
        night_id, pin_hash = row["night_id"], row["pin_hash"]
        if night_id is not None:
            night = store.night(night_id)
            if night["closed_at"]:  # a game of its own, under the lock it was played under
                night_id, pin_hash = None, night["pin_hash"] or pin_hash
        return seat(store, catalog, setup, night_id, pin_hash, rematch_of=row["id"]), True


def seat(
    store: Store,
    catalog: Catalog,
    setup: Setup,
    night_id: int | None,
    pin_hash: str | None,
    rematch_of: int | None = None,
) -> int:
    """Store a new game, in its night with the carry waiting there; a PIN given in a night locks the
    night (one night, one PIN)."""
    players = setup.players
    side_of = (
        [next(i for i, side in enumerate(setup.teams) if name in side) for name in players] if setup.teams else None
    )
    carry = 0
    if night_id is not None:
        _check_open_night(store, night_id)
        carry = carry_in(setup, night_pending(store, catalog, night_id))
        if pin_hash:  # a locked night keeps its own PIN
            store.lock_night(night_id, pin_hash)
            pin_hash = None
    return store.create_game(
        setup.ruleset.id,
        store.keep_ruleset(setup.ruleset.id, ruleset_document(setup.ruleset)),
        list(players),
        setup.first_dealer,
        setup.penny_cents,
        side_of,
        night_id,
        pin_hash,
        carry,
        rematch_of,
    )


def check_known_look_alikes(store: Store, players: Sequence[str]) -> None:
    """A new name that looks like a player known here but is not the same name ("Аnn" with a
    Cyrillic А beside the Ann of the leaderboard) is refused, naming who it looks like."""
    known = {look_alike_key(name): name for name in store.known_players()}
    for name in players:
        match = known.get(look_alike_key(name))
        if match is not None and name_key(match) != name_key(name):
            raise GameError(
                f"{name!r} looks like {match!r}, who has played here: type {match!r} if it is the same player, "
                "or a name that does not look like it",
                name,
            )


def _first_dealer_seat(players: tuple[str, ...], first_dealer: str | None, rng: random.Random | None) -> int:
    if not first_dealer:
        return (rng or random.SystemRandom()).randrange(len(players)) if players else 0
    keys = [name_key(name) for name in players]
    wanted = name_key(first_dealer)
    if wanted not in keys:
        raise GameError(f"the first dealer {first_dealer!r} is not one of the players")
    return keys.index(wanted)


def _check_open_night(store: Store, night_id: int) -> None:
    try:
        night = store.night(night_id)
    except NotFound:
        raise GameError(f"there is no night {night_id}") from None
    if night["closed_at"]:
        raise GameError(f"night {night_id} is closed: start a new night for this game")


def _pin_hash(pin: str) -> str:
    try:
        return hash_new_pin(pin)
    except ValueError as error:
        raise GameError(str(error)) from None


# --- entries: buys, rounds, hands, undos ----------------------------------------------------------


@dataclass(frozen=True)
class GameChange:
    """Any change to one game: its lock (a page asks it before drawing a form that changes the game)."""

    game_id: int

    def lock(self, store: Store) -> Lock | None:
        return game_lock(store, store.game(self.game_id))


@dataclass(frozen=True, kw_only=True)
class GameEntry(GameChange):
    """One entry into a game, made against the version the asker saw (None: as it is stored now)."""

    version: int | None = None
    drafts_seen: Mapping[str, str] = field(default_factory=dict)  # player → the draft the form showed

    def apply(self, store: Store, catalog: Catalog) -> Game:
        return append(store, catalog, load_game(store, catalog, self.game_id).game, self.entry, self.drafts_seen)

    def entry(self, game: Game) -> Event:
        raise NotImplementedError


@dataclass(frozen=True, kw_only=True)
class RecordBuy(GameEntry):
    player: str
    round: int | None = None  # the round it is for (None: the round in play)

    def entry(self, game: Game) -> Event:
        number = self.round if self.round is not None else (game.current_round or game.round_count + 1)
        return Buy(next_id(game), number, game.player_named(self.player))


@dataclass(frozen=True, kw_only=True)
class RecordRound(GameEntry):
    """The round in play (``drawn_for``: the round the form or request was made for), or a
    correction of round ``number``."""

    went_out: str
    caught: Mapping[str, str]
    number: int | None = None
    drawn_for: int | None = None
    at_once: bool = False  # down and out in one turn
    cut_exactly: str | None = None  # who cut the deck exactly for the deal
    confirmed: bool = True  # a form asks once before a round where nobody was caught with a card

    def entry(self, game: Game) -> Event:
        if self.number is None:
            check_new_round(game, self.drawn_for)
        if not self.confirmed and not any(text.strip() for text in self.caught.values()):
            raise NeedsConfirming(
                f"Nobody but {self.went_out} was caught with cards? Tap Save again to record it like that."
            )
        return round_event(game, self.number, self.went_out, self.caught, self.at_once, self.cut_exactly)

    def refuse_stale(self, store: Store, catalog: Catalog) -> None:
        refuse_recorded_since(store, catalog, self.game_id, self.number, self.drawn_for)


@dataclass(frozen=True, kw_only=True)
class RecordHand(GameEntry):
    """A hand of a game played by sides: the one in play, or a correction of hand ``number``."""

    went_out: str | None
    sides: Sequence[Any]
    number: int | None = None
    drawn_for: int | None = None

    def entry(self, game: Game) -> Event:
        if self.number is None:
            check_new_round(game, self.drawn_for)
        return hand_event(game, next_id(game), self.number, self.went_out, self.sides)

    def refuse_stale(self, store: Store, catalog: Catalog) -> None:
        refuse_recorded_since(store, catalog, self.game_id, self.number, self.drawn_for)


@dataclass(frozen=True, kw_only=True)
class Undo(GameEntry):
    """Undo a buy or the last round; an undo of an undo puts back what it took back."""

    event_id: int

    def entry(self, game: Game) -> Event:
        return Void(next_id(game), self.event_id)


def refuse_recorded_since(
    store: Store, catalog: Catalog, game_id: int, number: int | None, drawn_for: int | None
) -> None:
    """A new round or hand sent from a view the game has moved on from: refused as already recorded
    when the round it was drawn for is recorded since (another phone, or Back then Save), so that the
    page redraws it as that round's correction; any other move (a buy, an undo) is a stale view."""
    if number is not None or drawn_for is None:
        return
    game = load_game(store, catalog, game_id).game
    if drawn_for <= len(game.rounds):
        raise AlreadyRecorded(game, drawn_for)


def check_new_round(game: Game, drawn_for: int | None) -> None:
    """A new round made for a round recorded meanwhile is refused, never filed as the next one."""
    if drawn_for is None or game.current_round is None or drawn_for == game.current_round:
        return  # a finished game refuses any new round in the rules' words
    if drawn_for <= len(game.rounds):
        raise AlreadyRecorded(game, drawn_for)
    word = game.ruleset.round_word
    raise GameError(f"{word} {drawn_for} has not started: the next is {game.current_round}")


def append(
    store: Store,
    catalog: Catalog,
    game: Game,
    make: Callable[[Game], Event],
    drafts_seen: Mapping[str, str] | None = None,
) -> Game:
    """Check the entry ``make(game)`` against the rules, then append it, with what it changes: the
    drafts it makes stale (those of a round saved: the ones it took or ``drafts_seen``), this game's
    results and, in a night, the carry of the games after it."""
    event = make(game)
    kind, payload = event_payload(event)
    # Events are numbered across all games: under the write lock the next number is known, so the
    # event is checked and applied once, under the number it is stored with.
    after = game.with_event(replace(event, id=store.next_event_id()))
    store.append_event(game.id, kind, payload, game.version, after.events[-1].id)
    settle_drafts(store, game, after, drafts_seen or {})
    save_derived(store, after)
    night_id = store.night_of(game.id)
    if night_id is not None:
        carry_forward(store, catalog, night_id, after)
    return after
