"""The scorekeeper's lock: a PIN (stored hashed) on a game, or on a night; without it, read-only.

A PIN on a night locks every game of the night and the night itself (adding a game, closing it),
because a game's money flows through its night: a tie's leftover carries into the next game, and
the night's nets add every game. A PIN given for a game started in a night locks that night (one PIN
for the evening); a game outside any night keeps a lock of its own.

Pages remember an unlocked lock in the (signed) session cookie; API clients trade the PIN for a
bearer token. Both carry the lock's generation: "Lock again" moves it on, which ends every unlock
given before, on every device. PIN tries are counted per lock, whoever makes them, in one atomic
statement; past a few free tries each one doubles the wait before the next.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, request, session
from itsdangerous import BadSignature, URLSafeTimedSerializer

from .pins import pin_matches
from .store import Store
from .store.rows import GameRow, NightRow

FREE_TRIES = 5
BASE_DELAY_SECONDS = 2.0
TOKEN_MAX_AGE = 24 * 3600  # one evening and then some


class LockError(Exception):
    status = 403


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


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="scorekeeper-unlock")


def issue_token(lock: Lock) -> str:
    return _serializer().dumps({"lock": lock.key, "generation": lock.generation})


def token_opens(token: str, lock: Lock) -> bool:
    try:
        data = _serializer().loads(token, max_age=TOKEN_MAX_AGE)
    except BadSignature:
        return False
    return isinstance(data, dict) and data.get("lock") == lock.key and data.get("generation") == lock.generation


def require_api_unlock(lock: Lock | None) -> None:
    """API writes under a lock need ``Authorization: Bearer <token>``: 401 without, 403 wrong."""
    if lock is None:
        return
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        raise NeedsUnlock(
            f"this {lock.kind} is locked: unlock it with its PIN and send the token as 'Authorization: Bearer …'"
        )
    if not token_opens(header[len("Bearer ") :].strip(), lock):
        raise LockError(f"that token does not open this {lock.kind} (or it was locked again since)")


def page_unlocked(lock: Lock | None) -> bool:
    return lock is None or lock.session_entry in session.get("unlocked", [])


def require_page_unlock(lock: Lock | None) -> None:
    if not page_unlocked(lock):
        assert lock is not None
        raise NeedsUnlock(
            f"This {lock.kind} is locked: only the scorekeeper can change it. Enter the PIN to unlock it here."
        )


def remember_unlocked(lock: Lock) -> None:
    session["unlocked"] = sorted({*session.get("unlocked", []), lock.session_entry})
    session.permanent = True


def lock_again(store: Store, lock: Lock) -> None:
    """Locked again everywhere: this device forgets it, and every earlier unlock stops working."""
    store.relock(lock.kind, lock.id)
    session["unlocked"] = [entry for entry in session.get("unlocked", []) if entry != lock.session_entry]
