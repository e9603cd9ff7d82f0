"""What the table does, as functions the views call: load a game, start one, record a buy, a
round or a hand, undo an entry, import an export.

Each command asks the rules engine whether the action may be recorded, then appends it as one
event, in one transaction with what it changes: the game's derived results and, in a night, the
carry of the later games that play for a bowl (stored with each game, so that loading a game
never replays the games before it).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .catalog import Catalog, UnknownRuleset
from .events import EventFormatError, event_from_row, event_payload
from .history import describe_change
from .notes import NoteError, clean_note
from .pins import hash_new_pin
from .rules.cards import Card, CardError, parse_hand
from .rules.game import Buy, Event, Game, HandRecord, RoundRecord, Void
from .rules.ledger import MoneyMode
from .rules.names import look_alike_key
from .rules.night import (
    NOTHING,
    Pending,
    carry_in,
    money_cents,
    money_moved,
    passes_over,
    pending_after,
    replay_night,
)
from .rules.rulesets import Ruleset
from .rules.scoring import RoundError, score_draft
from .rules.setup import GameError, Setup, clean_name, name_key
from .side_input import hand_event
from .store import NotFound, StaleWrite, Store, StoreError, exchange, records
from .store.rows import DraftRow, GameRow, ResultRow


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


def load_game(store: Store, catalog: Catalog, game_id: int) -> LoadedGame:
    """The game as stored, its row and its entries read in one snapshot, so its version is the
    version of exactly these entries. A stored entry the rules refuse is passed over and named in
    ``game.problems``: the game still loads, and its pages say what is wrong."""
    try:
        with store.reading():
            row = store.game(game_id)
            events = store.events(game_id)
    except NotFound:
        raise GameNotFound(f"there is no game {game_id}") from None
    game = Game(
        game_setup(catalog, row), [event_from_row(e) for e in events], row["id"], row["revision"], tolerant=True
    )
    return LoadedGame(row, game, {e["id"]: e["created_at"] for e in events})


def ruleset_of(catalog: Catalog, row: GameRow) -> Ruleset:
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
    )


# --- starting a game --------------------------------------------------------------------------


def start_game(
    store: Store,
    catalog: Catalog,
    ruleset_id: str,
    names: Sequence[str],
    first_dealer: str | None,
    penny_cents: int = 1,
    rng: random.Random | None = None,
    teams: Sequence[Sequence[str]] | None = None,
    night_id: int | None = None,
    pin: str | None = None,
    seen_night_pin: str | None = None,
) -> int:
    """Seat the players; with no first dealer named, the app draws one at random. ``seen_night_pin``:
    the night's PIN hash when the caller checked its lock (None: it was not locked)."""
    ruleset = catalog.get(ruleset_id)
    players = tuple(clean_name(name) for name in names)
    dealer_seat = _first_dealer_seat(players, first_dealer, rng)
    sides = tuple(tuple(clean_name(name) for name in team) for team in teams or ())
    setup = Setup(ruleset, players, dealer_seat, penny_cents, teams=sides)  # validates names, count, teams, penny
    check_known_look_alikes(store, players)
    return _seat(store, catalog, setup, night_id, _pin_hash(pin) if pin else None, seen_night_pin)


def rematch(store: Store, catalog: Catalog, loaded: LoadedGame) -> tuple[int, bool]:
    """The same players in the same seats, the deal moved on one seat to the left, the same ruleset,
    penny value, teams and night (if it is still open) and the same lock: (its id, whether it is
    new). A game is played again once: a second rematch of it (Back, then Rematch; a second phone)
    is the one already made."""
    game, row = loaded.game, loaded.row
    if not game.finished:
        raise GameError(
            f"a rematch starts when the game is finished: {game.ruleset.round_word} {game.current_round} is next"
        )
    setup = replace(game.setup, first_dealer=(game.setup.first_dealer + 1) % len(game.players), carry_in=0)
    with store.writing():
        made = store.rematch_of(row["id"])
        if made is not None:
            return made, False
        night_id, pin_hash, seen_night_pin = row["night_id"], row["pin_hash"], None
        if night_id is not None:
            night = store.night(night_id)
            seen_night_pin = night["pin_hash"]
            if night["closed_at"]:  # a game of its own, under the lock it was played under
                night_id, pin_hash = None, night["pin_hash"] or pin_hash
        return _seat(store, catalog, setup, night_id, pin_hash, seen_night_pin, rematch_of=row["id"]), True


def _seat(
    store: Store,
    catalog: Catalog,
    setup: Setup,
    night_id: int | None,
    pin_hash: str | None,
    seen_night_pin: str | None,
    rematch_of: int | None = None,
) -> int:
    """Store a new game, in its night with the carry waiting there; a PIN given in a night locks the
    night. The night's lock is checked again under the write lock: one night, one PIN."""
    players = setup.players
    side_of = (
        [next(i for i, side in enumerate(setup.teams) if name in side) for name in players] if setup.teams else None
    )
    with store.writing():
        carry = 0
        if night_id is not None:
            _check_open_night(store, night_id)
            if store.night(night_id)["pin_hash"] != seen_night_pin:
                raise GameError(
                    f"night {night_id} was locked with a PIN on another device meanwhile: nothing was started. "
                    "Unlock the night with that PIN, then start the game"
                )
            carry = carry_in(setup, night_pending(store, catalog, night_id))
            if pin_hash:  # a locked night keeps its own PIN
                store.lock_night(night_id, pin_hash)
                pin_hash = None
        return store.create_game(
            setup.ruleset.id, list(players), setup.first_dealer, setup.penny_cents, side_of, night_id, pin_hash,
            carry, rematch_of,
        )  # fmt: skip


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


# --- recording --------------------------------------------------------------------------------


def record_buy(
    store: Store, catalog: Catalog, game: Game, player: str, version: int | None = None, round_number: int | None = None
) -> Game:
    name = game.player_named(player)
    number = round_number if round_number is not None else (game.current_round or game.round_count + 1)
    return _record(store, catalog, game, Buy(_next_id(game), number, name), version)


def record_round(
    store: Store,
    catalog: Catalog,
    game: Game,
    went_out: str,
    caught: Mapping[str, str],
    number: int | None = None,
    version: int | None = None,
) -> Game:
    """Record the current round, or correct round ``number``."""
    return _record(store, catalog, game, round_event(game, number, went_out, caught), version, new=number is None)


def record_hand(
    store: Store,
    catalog: Catalog,
    game: Game,
    went_out: str | None,
    sides: Sequence[Any],
    number: int | None = None,
    version: int | None = None,
) -> Game:
    """Record the current hand of a game played by sides, or correct hand ``number``."""
    event = hand_event(game, _next_id(game), number, went_out, sides)
    return _record(store, catalog, game, event, version, new=number is None)


def undo(store: Store, catalog: Catalog, game: Game, event_id: int, version: int | None = None) -> Game:
    return _record(store, catalog, game, Void(_next_id(game), event_id), version)


def preview_round(game: Game, went_out: str, caught: Mapping[str, str], number: int | None = None) -> Game:
    """The game as it would be after this round, without saving anything."""
    return game.with_event(round_event(game, number, went_out, caught))


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
    record = hand_event(game, _next_id(game), number, went_out, sides)
    before = game.totals_before(record.round)
    problem, player = None, None
    try:
        results = dict(game.with_event(record).rounds[record.round - 1].results)
    except GameError as error:
        results, problem, player = dict(game.hand_as_entered(record)), str(error), error.player
    scores = {name: result.points for name, result in results.items()}
    totals = {name: before[name] + points for name, points in scores.items()}
    return HandPreview(record.round, scores, totals, problem, player)


def round_event(game: Game, number: int | None, went_out: str, caught: Mapping[str, str]) -> RoundRecord:
    if number is None:
        if game.current_round is None:
            raise GameError(f"the game is finished: all {game.round_count} rounds are recorded")
        number = game.current_round
    out = game.player_named(went_out) if went_out else ""
    if not out:
        raise GameError("say who went out")
    return RoundRecord(_next_id(game), number, out, parse_caught(game, caught))


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


def _next_id(game: Game) -> int:
    return max((event.id for event in game.events), default=0) + 1


class AlreadyRecorded(GameError):
    """A new round or hand for one that is recorded meanwhile (two phones, or a retry after a lost
    answer): never turned into a correction unseen."""

    def __init__(self, game: Game, number: int) -> None:
        word = game.ruleset.round_word
        super().__init__(f"{word} {number} is already recorded: nothing was saved. Correct {word} {number} instead")
        self.number = number
        self.version = game.version


def _record(store: Store, catalog: Catalog, game: Game, event: Event, version: int | None, new: bool = False) -> Game:
    """Check the event against the rules, then append it if nobody wrote in between, together with
    what it changes (this game's results; in a night, the carry of the games after it)."""
    kind, payload = event_payload(event)
    expected = game.version if version is None else version
    with store.writing():
        # What is checked is read under the write lock: the game as stored now, never the one the
        # request loaded before another request wrote (an 11th buy checked against 9).
        stored = store.revision(game.id)
        if stored != expected:
            raise StaleWrite(expected, stored)
        if game.version != stored:
            game = load_game(store, catalog, game.id).game
        if new and isinstance(event, (RoundRecord, HandRecord)) and event.round != game.current_round:
            raise AlreadyRecorded(game, event.round)
        # Events are numbered across all games: under the write lock the next number is known, so
        # the event is checked and applied once, under the number it is stored with.
        after = game.with_event(replace(event, id=store.next_event_id()))
        store.append_event(game.id, kind, payload, expected, after.events[-1].id)
        store.clear_drafts(game.id, rounds_changed(game, after), beyond=len(after.rounds) + 1)
        save_derived(store, after)
        night_id = store.night_of(game.id)
        if night_id is not None:
            carry_forward(store, catalog, night_id, after)
    return after


def rounds_changed(before: Game, after: Game) -> list[int]:
    """The rounds whose record in force an entry changed: saved, corrected, undone or put back. A
    phone's draft for such a round was typed against what it was before, so it is done with."""
    was = {result.number: result.record_id for result in before.rounds}
    now = {result.number: result.record_id for result in after.rounds}
    return sorted(number for number in was.keys() | now.keys() if was.get(number) != now.get(number))


def save_derived(store: Store, game: Game) -> None:
    """What the store keeps worked out for a game: each seat's results, and once the game has ended,
    each seat's money as it stood then (what a later correction is measured against)."""
    if store.save_results(game.id, result_rows(game)):
        records.refresh_game(store, game.id)
    if game.finished:
        store.keep_money_at_end(game.id, money_cents(game))


def result_rows(game: Game) -> list[ResultRow]:
    """Each seat's game in numbers, for history and the leaderboard (derived, never entered)."""
    rows: list[ResultRow] = []
    cents = money_cents(game)  # rows of 1¢ and 5¢ games add up
    for seat in range(len(game.players)):
        summary = game.seat_summary(seat)
        rows.append(
            {
                "seat": seat,
                "rounds": summary.rounds,
                "points": summary.points,
                "won": int(summary.won),
                "finished": int(summary.finished),
                "money": cents[seat],
                "best_round": summary.best_round,
                "worst_round": summary.worst_round,
                "went_out": summary.went_out,
                "buys": summary.buys,
                "place": summary.place,
                "caught": json.dumps(summary.caught),
            }
        )
    return rows


# --- the carry through a night ----------------------------------------------------------------


def night_pending(store: Store, catalog: Catalog, night_id: int) -> Pending:
    """The leftover waiting for the night's next game that plays for a bowl."""
    pending = NOTHING
    for game_id in reversed(store.night_game_ids(night_id)):
        loaded = load_game(store, catalog, game_id)
        if not passes_over(loaded.game.setup):
            return pending_after(loaded.game, pending)
    return pending


def carry_forward(store: Store, catalog: Catalog, night_id: int, changed: Game) -> None:
    """After a change to ``changed``, give the later games of its night their new carry-in.

    Runs inside the write transaction. A game whose carry-in does not change changes nothing
    after it, so the walk stops there."""
    if passes_over(changed.setup):
        return
    pending = pending_after(changed, NOTHING)
    for game_id in store.night_game_ids(night_id, after=changed.id):
        row = store.game(game_id)
        setup = game_setup(catalog, row, carry=0)
        if passes_over(setup):
            continue
        setup = replace(setup, carry_in=carry_in(setup, pending))
        if setup.carry_in == row["carry_in"]:
            return
        game = Game(setup, _events(store, game_id), game_id, tolerant=True)
        store.set_carry(game_id, setup.carry_in)
        save_derived(store, game)
        pending = pending_after(game, pending)


def refresh_night(store: Store, catalog: Catalog, night_id: int) -> None:
    """Replay a whole night (after an upgrade or an import): every carry and result anew."""
    with store.writing():
        rows = [store.game(game_id) for game_id in store.night_game_ids(night_id)]
        entries = ((game_setup(catalog, row, carry=0), _events(store, row["id"]), row["id"]) for row in rows)
        for row, game in zip(rows, replay_night(entries), strict=True):
            if game.setup.carry_in != row["carry_in"]:
                store.set_carry(row["id"], game.setup.carry_in)
            save_derived(store, game)
        store.night_refreshed(night_id)


def refresh_stale_results(store: Store, catalog: Catalog) -> None:
    """Work out again the results an upgrade asked for (players' records, m017): once, game by game."""
    for game_id in store.stale_results():
        with store.writing():
            try:
                save_derived(store, load_game(store, catalog, game_id).game)
            except (MissingRuleset, GameNotFound):
                pass  # a game whose ruleset file is gone keeps its old results until it is back
            store.results_refreshed(game_id)


def refresh_stale_nights(store: Store, catalog: Catalog) -> None:
    """Work out the nights left stale; one with a game whose ruleset file is gone waits for it."""
    for night_id in store.stale_nights():
        try:
            refresh_night(store, catalog, night_id)
        except MissingRuleset:
            continue


def _events(store: Store, game_id: int) -> list[Event]:
    return [event_from_row(row) for row in store.events(game_id)]


# --- import -----------------------------------------------------------------------------------


class ImportRefused(ValueError):
    """An export that cannot be imported; the message names the first bad entry (game, entry, field)."""


def import_dump(store: Store, catalog: Catalog, data: dict[str, Any]) -> list[int]:
    """Import an export, all of it or nothing: its rows are checked field by field, then every game
    is replayed entry by entry through the same engine that records live entries, in one
    transaction; the first failure (a taken id, an unknown ruleset, an entry the rules refuse)
    rolls everything back and is named."""
    with store.writing():
        try:
            game_ids = exchange.load_dump(store, data)
        except StoreError as error:
            raise ImportRefused(str(error)) from None
        for night in data["nights"]:
            check_imported_note(f"night {night['id']}", store.night(night["id"])["notes"])
        for game_id in game_ids:
            check_imported_note(f"game {game_id}", store.game(game_id)["notes"])
            game = replay_checked(store, catalog, game_id)
            if store.night_of(game_id) is None:
                save_derived(store, game)
        refresh_stale_nights(store, catalog)
    return game_ids


def check_imported_note(where: str, note: str) -> None:
    try:
        clean_note(note)
    except NoteError as error:
        raise ImportRefused(f"{where}: {error}") from None


def replay_checked(store: Store, catalog: Catalog, game_id: int) -> Game:
    """A stored game replayed one entry at a time, naming the first one the rules refuse."""
    row = store.game(game_id)
    try:
        game = Game(game_setup(catalog, row), [], game_id)
    except MissingRuleset:
        raise ImportRefused(f"game {game_id}: there is no ruleset {row['ruleset']!r}") from None
    except GameError as error:
        raise ImportRefused(f"game {game_id}: {error}") from None
    for entry in store.events(game_id):
        try:
            event = event_from_row(entry)
        except EventFormatError as error:  # the message names the entry
            raise ImportRefused(f"game {game_id}, {error}") from None
        try:
            game = game.with_event(event)
        except GameError as error:
            raise ImportRefused(f"game {game_id}, entry {entry['id']} ({entry['kind']}): {error}") from None
    return game


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


# --- payments on paper ------------------------------------------------------------------------

MAX_PAYMENT_CENTS = 10**9
MAX_NIGHT_NAME = 80  # characters: the form and the API refuse a longer name alike


class NightClosed(GameError):
    """A change a closed night no longer takes (its money mode)."""

    def __init__(self, night_id: int, what: str) -> None:
        super().__init__(f"night {night_id} is closed: {what}")


def create_night(store: Store, name: str, money: MoneyMode) -> int:
    """A new night: its name (optional, at most MAX_NIGHT_NAME characters, never cut) and how it pays."""
    name = name.strip()
    if len(name) > MAX_NIGHT_NAME:
        raise GameError(f"a night's name is at most {MAX_NIGHT_NAME} characters, not {len(name)}")
    return store.create_night(name, money)


def set_money_mode(store: Store, night_id: int, money: MoneyMode) -> None:
    """Pennies on the table or on paper: changeable while the night is open, checked and written in
    one transaction (a close on another phone in between wins). Payments made are kept either way."""
    with store.writing():
        if store.night(night_id)["closed_at"]:
            raise NightClosed(night_id, "its money mode stays as it was")
        store.set_money_mode(night_id, money)


def pay(store: Store, catalog: Catalog, night_id: int, payer: str, payee: str, cents: int) -> int:
    """Keep a payment made on paper (money handed over): who, to whom, how many cents, and the nets
    it was made against (what a later correction moved is then said). Checked and written in one
    transaction."""
    from .night_report import BOWL, night_report  # the report loads games through this module

    with store.writing():
        report = night_report(store, catalog, night_id)
        people = {name_key(name): name for name in [*report.players, BOWL]}
        if not report.money.on_paper:
            raise GameError(f"night {night_id} is played with pennies on the table: nothing is paid on paper")
        known = [people.get(name_key(who)) for who in (payer, payee)]
        if known[0] is None or known[1] is None:
            raise GameError(f"{payer!r} and {payee!r} must both be players of night {night_id} (or {BOWL!r})")
        if known[0] == known[1]:
            raise GameError("a payment goes from one player to another")
        if not 1 <= cents <= MAX_PAYMENT_CENTS:
            raise GameError(f"a payment is 1 to {MAX_PAYMENT_CENTS} cents, not {cents}")
        nets = json.dumps(report.balance(), sort_keys=True)
        return store.record_payment(night_id, known[0], known[1], cents, nets)


def take_back_payment(store: Store, night_id: int, payment_id: int, undone: bool) -> None:
    """ "Not paid after all" (``undone``), or paid after all: the only way a payment made is changed."""
    if not store.set_payment_undone(night_id, payment_id, undone):
        raise GameError(f"night {night_id} has no payment {payment_id}")


def close_night(store: Store, night_id: int) -> None:
    """Closed: no new game joins it and its money mode stays; closing it again changes nothing."""
    store.close_night(night_id)


def keep_note(store: Store, kind: str, row_id: int, text: str, seen_edits: int | None) -> bool:
    """The note of a game or a night, cleaned (NoteError says what cannot be kept); False, and nothing
    written, when it was edited elsewhere since the editor read it (after ``seen_edits`` edits; None:
    as it is now)."""
    notes = clean_note(text)
    if seen_edits is None:
        seen_edits = (store.game(row_id) if kind == "game" else store.night(row_id))["notes_edits"]
    return store.replace_notes(kind, row_id, notes, seen_edits)


# --- drafts: players enter their own hands (issue 27) ---------------------------------------------

MAX_DRAFT_TEXT = 200  # far more than any hand typed as cards
MAX_DRAFT_POINTS = 10_000  # a Pennies From Heaven hand left in hand, counted by the player


class DraftRefused(GameError):
    """A draft that cannot be kept (its round saved already or not begun, another phone's player)."""


def keep_draft(
    store: Store,
    catalog: Catalog,
    game_id: int,
    number: int,
    player: str,
    cards: str | None,
    points: int | None,
    phone_is: str | None = None,
    correction: bool = False,
) -> dict[str, Any]:
    """A hand a player entered on their own phone for the round it was typed in: checked as it is typed
    (its size against the player's buys, the decks' supply) and kept, replacing their last draft. Not
    an entry: no points, pennies or version move; the scorekeeper's Save records the round as always.
    A round saved meanwhile takes the hand only as a ``correction`` request, which the scorekeeper's
    correction form offers: a late tap is never filed in another round.
    ``phone_is``: the player this phone said it is (a draft for anyone else is refused)."""
    # Checked and kept under the write lock: a Save on the scorekeeper's phone in between would
    # otherwise leave a draft behind for a round already saved.
    with store.writing():
        game = load_game(store, catalog, game_id).game
        check_draft_round(game, number, correction)
        name = game.player_named(player)
        if phone_is is not None and name_key(phone_is) != name_key(name):
            raise DraftRefused(f"this phone entered hands as {phone_is}: {name}'s hand is entered on {name}'s phone "
                               "(or by the scorekeeper)")  # fmt: skip
        result = draft_result(game, number, name, cards, points)
        store.keep_draft(game_id, number, name, cards, points)
    saved = number <= len(game.rounds)
    return {"player": name, "round": number, "cards": cards, "points": result[0], "pennies": result[1],
            "correction": saved}  # fmt: skip


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
        raise DraftRefused(f"a hand is at most {MAX_DRAFT_TEXT} characters, not {len(cards)}")
    if game.ruleset.by_sides:
        if points is None or not 0 <= points <= MAX_DRAFT_POINTS:
            raise DraftRefused(f"say the points left in {player}'s hand (0 to {MAX_DRAFT_POINTS})")
        return points, 0
    if cards is None:
        raise DraftRefused(f"say the cards {player} was caught with (nothing, if none)")
    hand = parse_caught(game, {player: cards})[player]
    try:
        result = score_draft(game.ruleset, game.setup.decks, player, hand, game.buys_in_round(number)[player])
    except RoundError as error:
        raise DraftRefused(str(error), player) from None
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
