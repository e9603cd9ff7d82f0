"""Who asks for a write, as the runner needs to know it: the locks a page's browser opened (kept in
the signed session cookie, with the lock's generation) or the locks an API client's bearer token
opens. Which write needs which lock is the commands' business; this module only says what the asker
holds, and how to tell them they do not hold it."""

from __future__ import annotations

from flask import current_app, request, session
from itsdangerous import BadSignature, URLSafeTimedSerializer

from ..commands import Asker
from ..commands.locks import TOKEN_MAX_AGE, Lock, LockError, NeedsUnlock


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


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    return header[len("Bearer ") :].strip() if header.startswith("Bearer ") else None


def _api_refusal(lock: Lock) -> LockError:
    """API writes under a lock need ``Authorization: Bearer <token>``: 401 without, 403 wrong."""
    if _bearer() is None:
        return NeedsUnlock(
            f"this {lock.kind} is locked: unlock it with its PIN and send the token as 'Authorization: Bearer …'"
        )
    return LockError(f"that token does not open this {lock.kind} (or it was locked again since)")


def _token_opened(lock: Lock) -> bool:
    token = _bearer()
    return token is not None and token_opens(token, lock)


def page_unlocked(lock: Lock | None) -> bool:
    """Whether this browser may change what ``lock`` locks (for a page to draw its buttons)."""
    return lock is None or lock.session_entry in session.get("unlocked", [])


def _page_refusal(lock: Lock) -> LockError:
    return NeedsUnlock(
        f"This {lock.kind} is locked: only the scorekeeper can change it. Enter the PIN to unlock it here."
    )


def page_asker() -> Asker:
    """The browser of this request: what its session opened."""
    return Asker(page_unlocked, _page_refusal)


def api_asker() -> Asker:
    """The API client of this request: what its bearer token opens."""
    return Asker(_token_opened, _api_refusal)


def remember_unlocked(lock: Lock) -> None:
    session["unlocked"] = sorted({*session.get("unlocked", []), lock.session_entry})
    session.permanent = True


def forget_unlocked(lock: Lock) -> None:
    session["unlocked"] = [entry for entry in session.get("unlocked", []) if entry != lock.session_entry]
