"""The scorekeeper's lock: a game may carry a PIN (stored hashed); without it the game is read-only.

Pages remember an unlocked game in the (signed) session cookie; API clients trade the PIN for a
bearer token. Wrong PINs are counted per game and client, and past a few free tries each one
doubles the wait before the next try.
"""

from __future__ import annotations

from flask import current_app, request, session
from itsdangerous import BadSignature, URLSafeTimedSerializer

from .pins import pin_matches
from .store import Store
from .store.rows import GameRow

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
        super().__init__(f"too many wrong PINs: wait {int(wait) + 1} seconds before trying again")
        self.wait = wait


class NeedsUnlock(LockError):
    status = 401


def client_id() -> str:
    return request.remote_addr or "unknown"


def verify_pin(store: Store, game: GameRow, pin: str) -> None:
    """Raise unless ``pin`` opens the game; count failures and make guessers wait."""
    game_id = game["id"]
    wait = store.pin_block(game_id, client_id())
    if wait > 0:
        raise TooManyTries(wait)
    if not pin_matches(game["pin_hash"] or "", pin):
        wait = store.pin_failed(game_id, client_id(), FREE_TRIES, BASE_DELAY_SECONDS)
        if wait > 0:
            raise TooManyTries(wait)
        raise WrongPin("that is not this game's PIN")
    store.pin_succeeded(game_id, client_id())


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="scorekeeper-unlock")


def issue_token(game_id: int) -> str:
    return _serializer().dumps({"game": game_id})


def token_opens(token: str, game_id: int) -> bool:
    try:
        data = _serializer().loads(token, max_age=TOKEN_MAX_AGE)
    except BadSignature:
        return False
    return isinstance(data, dict) and data.get("game") == game_id


def require_api_unlock(game: GameRow) -> None:
    """API writes to a locked game need ``Authorization: Bearer <token>``: 401 without, 403 wrong."""
    if not game["pin_hash"]:
        return
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        raise NeedsUnlock("this game is locked: unlock it with its PIN and send the token as 'Authorization: Bearer …'")
    if not token_opens(header[len("Bearer ") :].strip(), game["id"]):
        raise LockError("that token does not open this game")


def page_unlocked(game: GameRow) -> bool:
    return not game["pin_hash"] or game["id"] in session.get("unlocked", [])


def remember_unlocked(game_id: int) -> None:
    session["unlocked"] = sorted({*session.get("unlocked", []), game_id})
    session.permanent = True


def forget_unlocked(game_id: int) -> None:
    session["unlocked"] = [g for g in session.get("unlocked", []) if g != game_id]
