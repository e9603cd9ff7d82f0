"""What a write derives and the store keeps worked out, in the same transaction: each seat's
results, the carry through a night, the drafts a change makes stale; and the replays that work them
out again after an upgrade or an import (an import is one command: all of it or nothing)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..reads.catalog import Catalog
from ..reads.drafts import draft_done_with
from ..reads.events import EventFormatError, event_from_row
from ..reads.loading import GameNotFound, MissingRuleset, game_setup, load_game, stored_events
from ..reads.notes import NoteError, clean_note
from ..rules.game import Game, HandRecord, RoundRecord
from ..rules.night import NOTHING, Pending, carry_in, money_cents, passes_over, pending_after, replay_night
from ..rules.setup import GameError
from ..store import Store, StoreError, exchange, record_keeping
from ..store.rows import ResultRow


def rounds_changed(before: Game, after: Game) -> list[int]:
    """The rounds whose record in force an entry changed: saved, corrected, undone or put back. A
    phone's draft for such a round was typed against what it was before, so it is done with."""
    was = {result.number: result.record_id for result in before.rounds}
    now = {result.number: result.record_id for result in after.rounds}
    return sorted(number for number in was.keys() | now.keys() if was.get(number) != now.get(number))


def settle_drafts(store: Store, before: Game, after: Game, seen: Mapping[str, str]) -> None:
    """The drafts an entry makes stale: those of every round it changed, and of the rounds after the
    last one recorded (left by an undo); but of a round it saves, only the drafts done with."""
    entry = after.events[-1]
    record = entry if isinstance(entry, RoundRecord | HandRecord) else None
    changed = [number for number in rounds_changed(before, after) if record is None or number != record.round]
    store.clear_drafts(after.id, changed, beyond=len(after.rounds) + 1)
    if record is None:
        return
    for row in store.drafts(after.id, record.round):
        if draft_done_with(record, row, seen):
            store.drop_draft(after.id, record.round, row["player"])


def save_derived(store: Store, game: Game, keep_records: bool = True) -> None:
    """What the store keeps worked out for a game: each seat's results, the players' records (unless
    the caller adds them up itself: an import), and once the game has ended, each seat's money as
    it stood then (what a later correction is measured against)."""
    was_finished = store.save_results(game.id, result_rows(game))
    if keep_records:
        record_keeping.keep_game(store, game.id, was_finished)
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
        game = Game(setup, stored_events(store, game_id), game_id, tolerant=True)
        store.set_carry(game_id, setup.carry_in)
        save_derived(store, game)
        pending = pending_after(game, pending)


def refresh_night(store: Store, catalog: Catalog, night_id: int, keep_records: bool = True) -> None:
    """Replay a whole night (after an upgrade or an import): every carry and result anew."""
    with store.writing():
        rows = [store.game(game_id) for game_id in store.night_game_ids(night_id)]
        entries = ((game_setup(catalog, row, carry=0), stored_events(store, row["id"]), row["id"]) for row in rows)
        for row, game in zip(rows, replay_night(entries), strict=True):
            if game.setup.carry_in != row["carry_in"]:
                store.set_carry(row["id"], game.setup.carry_in)
            save_derived(store, game, keep_records)
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


# --- import -----------------------------------------------------------------------------------


class ImportRefused(ValueError):
    """An export that cannot be imported; the message names the first bad entry (game, entry, field)."""


def import_dump(store: Store, catalog: Catalog, data: dict[str, Any]) -> list[int]:
    """Import an export, all of it or nothing: its rows are checked field by field, then every game
    is replayed entry by entry through the same engine that records live entries, in one
    transaction; the first failure (a taken id, an unknown ruleset, an entry the rules refuse)
    rolls everything back and is named. The players' records are added up once at the end (their
    games may come in any order), not game by game."""
    with store.writing():
        try:
            game_ids = exchange.load_dump(store, data)
        except StoreError as error:
            raise ImportRefused(str(error)) from None
        store.pin_unpinned_games(catalog.versions)  # an export from before rulesets were kept
        for night in data["nights"]:
            check_imported_note(f"night {night['id']}", store.night(night["id"])["notes"])
        for game_id in game_ids:
            check_imported_note(f"game {game_id}", store.game(game_id)["notes"])
            game = replay_checked(store, catalog, game_id)
            if store.night_of(game_id) is None:
                save_derived(store, game, keep_records=False)
        for night in data["nights"]:
            refresh_night(store, catalog, night["id"], keep_records=False)
        record_keeping.add_up_players(store, store.players_of_games(game_ids))
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
