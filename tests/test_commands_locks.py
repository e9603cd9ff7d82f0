"""A PIN tried at the lock itself (commands/locks.py), on a store of its own: five wrong tries are
only wrong, the sixth is told to wait, the right PIN gives the free tries back, and each lock counts
its own tries."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.commands import locks
from scorekeeper.commands.locks import Lock, TooManyTries, WrongPin, verify_pin
from scorekeeper.pins import hash_new_pin
from scorekeeper.store import Store

PIN_HASH = hash_new_pin("4321")
GAME = Lock("game", 7, PIN_HASH, 0)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    kept = Store(tmp_path / "locks.sqlite3")
    kept.migrate()
    yield kept
    kept.close()


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
