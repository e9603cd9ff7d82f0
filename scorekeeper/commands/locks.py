"""The scorekeeper's lock: a PIN (stored hashed) on a game, or on a night; without it, read-only.

A PIN on a night locks every game of the night and the night itself (adding a game, closing it),
because a game's money flows through its night: a tie's leftover carries into the next game, and
the night's nets add every game. A PIN given for a game started in a night locks that night (one PIN
for the evening); a game outside any night keeps a lock of its own.

Whether a write needs a lock is decided here and by the runner, nowhere else. Who asks, and what
they opened, is ``access``'s business: pages remember an unlocked lock in the (signed) session
cookie, API clients trade the PIN for a bearer token; both carry the lock's generation, and "Lock
again" moves it on, which ends every unlock given before, on every device. PIN tries are counted
per lock, whoever makes them, in one atomic statement; past a few free tries each one doubles the
wait before the next.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..store import Store
from ..store.rows import GameRow, NightRow
from .pins import pin_matches

FREE_TRIES = 5
BASE_DELAY_SECONDS = 2.0
TOKEN_MAX_AGE = 24 * 3600  # one evening and then some


class LockError(Exception):
    status = 403
    lock: Lock | None = None  # the lock the runner found not opened (set by the runner)


class WrongPin(LockError):
    pass


class TooManyTries(LockError):
    status = 429

    def __init__(self, wait: float) -> None:
        self.seconds = int(wait) + 1  # whole seconds, rounded up: a try made then is never too early
        unit = "second" if self.seconds == 1 else "seconds"
        super().__init__(f"too many wrong PINs: wait {self.seconds} {unit} before trying again")


class NeedsUnlock(LockError):
    status = 401


@dataclass(frozen=True)
class Lock:
    kind: str  # "game" or "night"
    id: int
    pin_hash: str
    generation: int

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"

    @property
    def name(self) -> str:
        return f"{self.kind} {self.id}"

    @property
    def session_entry(self) -> str:
        return f"{self.key}:{self.generation}"


def night_lock(night: NightRow) -> Lock | None:
    if not night["pin_hash"]:
        return None
    return Lock("night", night["id"], night["pin_hash"], night["lock_generation"])


def game_lock(store: Store, game: GameRow) -> Lock | None:
    """What locks a game: its night's PIN, else its own, else nothing."""
    if game["night_id"] is not None:
        locked_night = night_lock(store.night(game["night_id"]))
        if locked_night is not None:
            return locked_night
    if game["pin_hash"]:
        return Lock("game", game["id"], game["pin_hash"], game["lock_generation"])
    return None


def verify_pin(store: Store, lock: Lock, pin: str) -> None:
    """Raise unless ``pin`` opens the lock; every try counts, and guessers are made to wait."""
    allowed, wait = store.claim_pin_try(lock.key, FREE_TRIES, BASE_DELAY_SECONDS)
    if not allowed:
        raise TooManyTries(wait)
    if not pin_matches(lock.pin_hash, pin):
        if wait > 0:  # past the free tries: say how long the next one must wait
            raise TooManyTries(wait)
        raise WrongPin(f"that is not this {lock.kind}'s PIN")
    store.pin_succeeded(lock.key)
