"""The API's blueprint and what its parts share: the one write (``write``: a command through the
runner, its answer remembered for the Idempotency-Key), JSON bodies only, and the refusals mapped to
status codes, once for every route."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Blueprint, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import UnsupportedMediaType
from werkzeug.wrappers import Response

from ..commands import EntryKey, KeyReused
from ..commands.games import AlreadyRecorded
from ..commands.locks import LockError, TooManyTries
from ..commands.outcomes import (
    AlreadySaved,
    Locked,
    MovedOn,
    Outcome,
    RecordedSince,
    Refused,
    Saved,
    ToConfirm,
    attempt,
)
from ..commands.runner import Command
from ..players.records import SeasonError
from ..reads import loading, meld_checks
from ..reads.catalog import UnknownRuleset
from ..reads.drafts import DraftRefused
from ..rules.game import Game
from ..rules.game_json import game_json
from ..rules.setup import GameError
from ..store import NotFound, StaleWrite, get_store
from ..web import current_catalog, written
from ..web.access import api_asker
from .bodies import BadRequest, field

bp = Blueprint("api", __name__, url_prefix="/api")
T = TypeVar("T")


def string_map(data: dict[str, Any], name: str) -> dict[str, str]:
    value: dict[str, Any] = field(data, name, dict)
    for key, text in value.items():
        if not isinstance(text, str):
            raise BadRequest(f"{name}[{key!r}] must be a string of cards")
    return {key: str(text) for key, text in value.items()}


def state(game: Game, status: int = 200) -> Response:
    """A game as the API answers with it."""
    return respond_json(game_json(game), status)


def load(game_id: int) -> Game:
    return loading.load_game(get_store(), current_catalog(), game_id).game


IDEMPOTENCY_KEY = "Idempotency-Key"


def entry_key() -> EntryKey | None:
    """The request's ``Idempotency-Key``, with the digest of what it asks (a key sent again with
    another request is refused, 422)."""
    key = request.headers.get(IDEMPOTENCY_KEY)
    if key is None:
        return None
    if not 1 <= len(key) <= 100 or not key.isascii() or not key.isprintable():
        raise BadRequest(f"{IDEMPOTENCY_KEY!r} is 1 to 100 printable ASCII characters")
    digest = hashlib.sha256(f"{request.method} {request.path}\n".encode() + request.get_data()).hexdigest()
    return EntryKey.api(key, digest)


def write(command: Command[T], respond: Callable[[T], Response]) -> Response:
    """Run ``command`` for this client through the one runner, once per ``Idempotency-Key``: a
    repeat of the key with the same request gets the first answer back (nothing recorded again).
    The answer is made in the write's transaction, so the one remembered is the one sent."""
    made: list[Response] = []

    def kept(result: T) -> tuple[int, str]:
        made.append(respond(result))
        return made[0].status_code, made[0].get_data(as_text=True)

    outcome = attempt(get_store(), current_catalog(), lambda: command, api_asker(), entry_key(), answer=kept)
    written()
    return answer(outcome, lambda result: made[0] if made else respond(result))


def answer(outcome: Outcome[T], respond: Callable[[T], Response]) -> Response:
    """The one place an API write's outcome becomes its answer: the same words and codes as the
    refusals raised before a write (below)."""
    match outcome:
        case Saved(result=result):
            return respond(result)
        case AlreadySaved(answer=first):
            replay = current_app.response_class(first.body, first.status, mimetype="application/json")
            replay.headers["Idempotent-Replayed"] = "true"
            return replay
        case RecordedSince(refusal=refusal):
            return already_recorded(refusal)
        case MovedOn(refusal=refusal):
            return stale(refusal)
        case Refused(error=error):
            return game_error(error)
        case Locked(refusal=refusal):
            return locked(refusal)
        case ToConfirm(question=question):  # pragma: no cover - the API's writes are confirmed as sent
            return respond_json({"error": question}, 400)


def game_state(status: int = 200) -> Callable[[Game], Response]:
    """The answer to a write that returns the game after it."""
    return lambda game: state(game, status)


def respond_json(data: Any, status: int = 200) -> Response:
    response = jsonify(data)
    response.status_code = status
    return response


@bp.before_request
def writes_are_json() -> None:
    """Every API write, with a body or without, says it is JSON: a page of another site can send a
    form or text/plain without asking first, but not application/json (the browser asks the server
    first, a CORS preflight this app never grants)."""
    if request.method not in ("GET", "HEAD", "OPTIONS") and not request.is_json:
        raise UnsupportedMediaType(
            "API writes are JSON: send Content-Type: application/json (with an empty body where none is needed)"
        )


@bp.errorhandler(UnsupportedMediaType)
def not_json(error: UnsupportedMediaType) -> ResponseReturnValue:
    return jsonify(error=error.description), 415


@bp.errorhandler(meld_checks.TooBusy)
def too_busy(error: meld_checks.TooBusy) -> ResponseReturnValue:
    return jsonify(error=str(error)), 503, {"Retry-After": "1"}


@bp.errorhandler(BadRequest)
@bp.errorhandler(SeasonError)
@bp.errorhandler(UnknownRuleset)
@bp.errorhandler(meld_checks.MeldQuestionError)
def bad_request(error: Exception) -> ResponseReturnValue:
    return jsonify(error=str(error)), 400


@bp.errorhandler(GameError)
def game_error(error: GameError) -> Response:
    """A refusal of the rules (400), with the player it is about; a draft the game as stored does not
    take is a conflict (409: its round saved already or not begun)."""
    conflict = isinstance(error, DraftRefused)
    payload: dict[str, Any] = {"error": str(error)}
    if error.player or conflict:
        payload["player"] = error.player
    return respond_json(payload, 409 if conflict else 400)


@bp.errorhandler(NotFound)
@bp.errorhandler(loading.GameNotFound)
def not_found(error: LookupError) -> ResponseReturnValue:
    return jsonify(error=str(error.args[0])), 404


@bp.errorhandler(LockError)
def locked(error: LockError) -> Response:
    response = respond_json({"error": str(error)}, error.status)
    if isinstance(error, TooManyTries):
        response.headers["Retry-After"] = str(error.seconds)  # a client can wait it out without reading the text
    return response


@bp.errorhandler(StaleWrite)
def stale(error: StaleWrite) -> Response:
    return respond_json({"error": str(error), "version": error.actual}, 409)


@bp.errorhandler(AlreadyRecorded)
def already_recorded(error: AlreadyRecorded) -> Response:
    """A new round for one recorded meanwhile: said with the request that corrects it."""
    where = f"/api/games/{error.game_id}/rounds/{error.number}"
    message = f"{error.word} {error.number} is already recorded: correct it with PUT {where}"
    return respond_json({"error": message, "version": error.version}, 409)


@bp.errorhandler(KeyReused)
def key_reused(error: KeyReused) -> ResponseReturnValue:
    message = f"this {IDEMPOTENCY_KEY} was used for another request: send a new key for a new entry"
    return jsonify(error=message), 422
