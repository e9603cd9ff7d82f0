"""What a write came to (scorekeeper/commands/outcomes.py): each outcome a page or the API renders,
made by real writes on a real store, the way a table makes them."""

from __future__ import annotations

from scorekeeper.commands import TRUSTED, Asker, EntryKey
from scorekeeper.commands.games import RecordBuy, RecordRound, StartGame
from scorekeeper.commands.locks import NeedsUnlock
from scorekeeper.commands.outcomes import (
    AlreadySaved,
    Locked,
    MovedOn,
    RecordedSince,
    Refused,
    Saved,
    ToConfirm,
    attempt,
)
from scorekeeper.commands.runner import run
from scorekeeper.reads.catalog import load_catalog
from scorekeeper.reads.loading import load_game
from scorekeeper.store import Store

CATALOG = load_catalog(None)
STRANGER = Asker(lambda lock: False, lambda lock: NeedsUnlock(f"{lock.name} is locked"))
PLAYERS = ("Ann", "Bob", "Cy")


def started(store: Store, pin: str | None = None) -> int:
    start = StartGame(ruleset_id="ten-pennies", names=PLAYERS, first_dealer="Ann", pin=pin)
    game_id = run(store, CATALOG, start, TRUSTED)
    assert isinstance(game_id, int)
    return game_id


def first_round(game_id: int, version: int | None = 0) -> RecordRound:
    caught = {"Ann": "", "Bob": "5H 6H", "Cy": "KS"}
    return RecordRound(game_id=game_id, version=version, went_out="Ann", caught=caught, drawn_for=1)


def test_a_round_saved_is_saved_with_the_game_after_it(store):
    outcome = attempt(store, CATALOG, lambda: first_round(started(store)), TRUSTED)
    assert isinstance(outcome, Saved) and len(outcome.result.rounds) == 1


def test_save_tapped_twice_is_already_saved_and_records_once(store):
    game_id = started(store)
    key = EntryKey.form("one-page")
    attempt(store, CATALOG, lambda: first_round(game_id), TRUSTED, key)
    again = attempt(store, CATALOG, lambda: first_round(game_id), TRUSTED, key)
    assert isinstance(again, AlreadySaved)
    assert len(load_game(store, CATALOG, game_id).game.rounds) == 1


def test_a_round_saved_on_another_phone_first_is_recorded_since_with_its_number(store):
    game_id = started(store)
    attempt(store, CATALOG, lambda: first_round(game_id), TRUSTED)
    late = attempt(store, CATALOG, lambda: first_round(game_id), TRUSTED)  # the same page, version 0
    assert isinstance(late, RecordedSince) and late.number == 1
    assert len(load_game(store, CATALOG, game_id).game.rounds) == 1


def test_a_buy_made_meanwhile_is_moved_on_and_the_same_entry_then_goes_through(store):
    game_id = started(store)
    attempt(store, CATALOG, lambda: RecordBuy(game_id=game_id, version=0, player="Bob"), TRUSTED)
    moved = attempt(store, CATALOG, lambda: first_round(game_id), TRUSTED)
    assert isinstance(moved, MovedOn) and moved.refusal.actual == 1
    assert isinstance(attempt(store, CATALOG, lambda: first_round(game_id, version=1), TRUSTED), Saved)


def test_a_card_the_rules_refuse_is_refused_with_the_player_it_is_about(store):
    game_id = started(store)
    bad = RecordRound(game_id=game_id, version=0, went_out="Ann", caught={"Bob": "5X", "Cy": ""}, drawn_for=1)
    refused = attempt(store, CATALOG, lambda: bad, TRUSTED)
    assert isinstance(refused, Refused) and refused.field == "Bob"
    assert "5X" in str(refused.error)
    assert load_game(store, CATALOG, game_id).game.rounds == []


def test_a_game_locked_by_its_pin_is_locked_for_a_phone_that_did_not_open_it(store):
    game_id = started(store, pin="4321")
    locked = attempt(store, CATALOG, lambda: first_round(game_id), STRANGER)
    assert isinstance(locked, Locked) and isinstance(locked.refusal, NeedsUnlock)
    assert load_game(store, CATALOG, game_id).game.rounds == []


def test_nobody_caught_with_a_card_is_asked_first_then_saved_when_confirmed(store):
    """The round form's question (RULES: a round where only the one who went out held nothing is
    possible but rare): asked, nothing saved; Save tapped again, confirmed, records it."""
    game_id = started(store)
    empty = {"Ann": "", "Bob": "", "Cy": " "}
    unconfirmed = RecordRound(game_id=game_id, version=0, went_out="Ann", caught=empty, drawn_for=1, confirmed=False)
    asked = attempt(store, CATALOG, lambda: unconfirmed, TRUSTED)
    assert isinstance(asked, ToConfirm) and asked.question.startswith("Nobody but Ann was caught with cards?")
    assert load_game(store, CATALOG, game_id).game.rounds == []
    confirmed = RecordRound(game_id=game_id, version=0, went_out="Ann", caught=empty, drawn_for=1, confirmed=True)
    assert isinstance(attempt(store, CATALOG, lambda: confirmed, TRUSTED), Saved)
