"""A PIN tried at the lock itself (commands/locks.py), on a store of its own: five wrong tries are
only wrong, the sixth is told to wait, the right PIN gives the free tries back, and each lock counts
its own tries."""

from __future__ import annotations

from typing import cast

import pytest

from scorekeeper.commands import locks
from scorekeeper.commands.locks import Lock, TooManyTries, WrongPin, game_lock, night_lock, verify_pin
from scorekeeper.commands.pins import hash_new_pin
from scorekeeper.store import Store
from scorekeeper.store.rows import GameRow

PIN_HASH = hash_new_pin("4321")
GAME = Lock("game", 7, PIN_HASH, 0)


def wrong_tries(store: Store, lock: Lock, count: int) -> None:
    for _ in range(count):
        with pytest.raises(WrongPin, match=f"^that is not this {lock.kind}'s PIN$"):
            verify_pin(store, lock, "0000")


def test_the_sixth_wrong_try_is_told_to_wait(store: Store):
    wrong_tries(store, GAME, 5)
    with pytest.raises(TooManyTries) as told:
        verify_pin(store, GAME, "0000")
    assert told.value.seconds == 3  # 2 s, rounded up: a try made then is never too early
    with pytest.raises(TooManyTries) as again:  # at once, even with the right PIN
        verify_pin(store, GAME, "4321")
    assert 1 <= again.value.seconds <= 3


def test_the_right_pin_opens_and_gives_the_free_tries_back(store: Store):
    wrong_tries(store, GAME, 4)
    verify_pin(store, GAME, "4321")
    wrong_tries(store, GAME, 5)  # five free tries again, not one


def test_each_lock_counts_its_own_tries(store: Store):
    night = Lock("night", 7, PIN_HASH, 0)
    wrong_tries(store, GAME, 5)
    wrong_tries(store, night, 5)  # the game's tries are not the night's
    verify_pin(store, night, "4321")


def test_past_the_free_tries_a_short_wait_is_said_too(store: Store, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(locks, "BASE_DELAY_SECONDS", 0.5)
    wrong_tries(store, GAME, 5)
    with pytest.raises(TooManyTries, match="^too many wrong PINs: wait 1 second before trying again$"):
        verify_pin(store, GAME, "0000")


# --- which lock a game or a night is under (RULES.md: a PIN given in a night locks the night) ----------


def a_game_row(night_id: int | None, pin_hash: str | None, generation: int = 0) -> GameRow:
    return cast(GameRow, {"id": 7, "night_id": night_id, "pin_hash": pin_hash, "lock_generation": generation})


def a_night(store: Store, pin_hash: str | None) -> int:
    night = store.create_night("Fri")
    if pin_hash:
        store.lock_night(night, pin_hash)
        store.relock("night", night)  # generation 1
    return night


def test_a_night_without_a_pin_has_no_lock(store: Store):
    assert night_lock(store.night(a_night(store, None))) is None


def test_a_locked_night_is_its_own_lock(store: Store):
    night = a_night(store, PIN_HASH)
    lock = night_lock(store.night(night))
    assert lock == Lock("night", night, PIN_HASH, 1)
    assert (lock.key, lock.name, lock.session_entry) == (f"night:{night}", f"night {night}", f"night:{night}:1")


def test_a_game_in_a_locked_night_is_under_the_nights_lock(store: Store):
    night = a_night(store, PIN_HASH)
    assert game_lock(store, a_game_row(night, hash_new_pin("9999"), 4)) == Lock("night", night, PIN_HASH, 1)


def test_a_game_with_a_pin_of_its_own_is_its_own_lock(store: Store):
    open_night = a_night(store, None)
    for night_id in (open_night, None):
        lock = game_lock(store, a_game_row(night_id, PIN_HASH, 2))
        assert lock == Lock("game", 7, PIN_HASH, 2)
        assert (lock.key, lock.name, lock.session_entry) == ("game:7", "game 7", "game:7:2")


def test_a_game_without_a_pin_in_an_open_night_is_open(store: Store):
    assert game_lock(store, a_game_row(a_night(store, None), None)) is None
    assert game_lock(store, a_game_row(None, None)) is None
