"""The JSON API: the same engine and store as the pages. Errors are ``{"error": "..."}`` with a 4xx."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from flask import Blueprint, current_app, jsonify, request, session
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import UnsupportedMediaType

from .. import lock, meld_checks, once, table
from ..catalog import UnknownRuleset
from ..history import describe_events
from ..night_report import night_report
from ..notes import NoteError
from ..players import records
from ..players.records import SeasonError
from ..rules.game import Game
from ..rules.game_json import game_json
from ..rules.ledger import MoneyMode
from ..rules.setup import MAX_PENNY_CENTS, GameError
from ..store import NotFound, StaleWrite, get_store
from ..store import records as stored
from ..web import current_catalog
from .bodies import BadRequest, body, field

bp = Blueprint("api", __name__, url_prefix="/api")


def string_map(data: dict[str, Any], name: str) -> dict[str, str]:
    value: dict[str, Any] = field(data, name, dict)
    for key, text in value.items():
        if not isinstance(text, str):
            raise BadRequest(f"{name}[{key!r}] must be a string of cards")
    return {key: str(text) for key, text in value.items()}


def state(game: Game, status: int = 200) -> ResponseReturnValue:
    return jsonify(game_json(game)), status


def load(game_id: int) -> Game:
    return table.load_game(get_store(), current_catalog(), game_id).game


def load_for_writing(game_id: int) -> Game:
    """The game, once the request shows it may change it (a locked game or night needs its token)."""
    loaded = table.load_game(get_store(), current_catalog(), game_id)
    lock.require_api_unlock(lock.game_lock(get_store(), loaded.row))
    return loaded.game


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


@bp.errorhandler(BadRequest)
@bp.errorhandler(SeasonError)
@bp.errorhandler(UnknownRuleset)
@bp.errorhandler(meld_checks.MeldQuestionError)
def bad_request(error: Exception) -> ResponseReturnValue:
    return jsonify(error=str(error)), 400


@bp.errorhandler(GameError)
def game_error(error: GameError) -> ResponseReturnValue:
    payload: dict[str, Any] = {"error": str(error)}
    if error.player:
        payload["player"] = error.player
    return jsonify(payload), 400


@bp.errorhandler(NotFound)
@bp.errorhandler(table.GameNotFound)
def not_found(error: LookupError) -> ResponseReturnValue:
    return jsonify(error=str(error.args[0])), 404


@bp.errorhandler(lock.LockError)
def locked(error: lock.LockError) -> ResponseReturnValue:
    response = jsonify(error=str(error))
    if isinstance(error, lock.TooManyTries):
        response.headers["Retry-After"] = str(error.seconds)  # a client can wait it out without reading the text
    return response, error.status


@bp.errorhandler(StaleWrite)
def stale(error: StaleWrite) -> ResponseReturnValue:
    return jsonify(error=str(error), version=error.actual), 409


class AlreadyRecorded(Exception):
    """A new round posted for a round that is already recorded (a retry after a lost answer)."""

    def __init__(self, message: str, version: int) -> None:
        super().__init__(message)
        self.version = version


@bp.errorhandler(AlreadyRecorded)
@bp.errorhandler(table.AlreadyRecorded)
def already_recorded(error: AlreadyRecorded | table.AlreadyRecorded) -> ResponseReturnValue:
    return jsonify(error=str(error), version=error.version), 409


IDEMPOTENCY_KEY = "Idempotency-Key"


def idempotent(view: Callable[..., ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
    """With an ``Idempotency-Key`` header a write is done once: a repeat of the key with the same
    request gets the first answer back (nothing recorded again); with another request, 422.
    The check, the write and the remembered answer are one transaction, so simultaneous repeats
    queue behind the first and then read its answer."""

    @functools.wraps(view)
    def at_most_once(**kwargs: Any) -> ResponseReturnValue:
        key = request.headers.get(IDEMPOTENCY_KEY)
        if key is None or request.method == "GET":  # a read is the same however often it is sent
            return view(**kwargs)
        if not 1 <= len(key) <= 100 or not key.isascii() or not key.isprintable():
            raise BadRequest(f"{IDEMPOTENCY_KEY!r} is 1 to 100 printable ASCII characters")
        digest = hashlib.sha256(f"{request.method} {request.path}\n".encode() + request.get_data()).hexdigest()
        try:
            done = once.record_once(
                get_store(), once.api_key(key), lambda: current_app.make_response(view(**kwargs)),
                game_id=kwargs.get("game_id"), digest=digest,
                answer=lambda response: (response.status_code, response.get_data(as_text=True)),
            )  # fmt: skip
        except once.KeyReused:
            message = f"this {IDEMPOTENCY_KEY} was used for another request: send a new key for a new entry"
            return jsonify(error=message), 422
        if isinstance(done, once.Answered):
            replay = current_app.response_class(done.body, done.status, mimetype="application/json")
            replay.headers["Idempotent-Replayed"] = "true"
            return replay
        return done

    return at_most_once


@bp.get("/rulesets")
def rulesets() -> ResponseReturnValue:
    return jsonify([ruleset.to_summary() for ruleset in current_catalog().rulesets.values()])


@bp.post("/games")
@idempotent
def create_game() -> ResponseReturnValue:
    data = body()
    ruleset = field(data, "ruleset", str)
    players = field(data, "players", list)
    if not all(isinstance(name, str) for name in players):
        raise BadRequest("'players' must be a list of names")
    penny = field(data, "penny_cents", int, required=False, high=MAX_PENNY_CENTS)
    teams = field(data, "teams", list, required=False)
    if teams is not None and not all(isinstance(t, list) and all(isinstance(n, str) for n in t) for t in teams):
        raise BadRequest("'teams' must be a list of lists of player names")
    night_id = field(data, "night", int, required=False)
    night_lock = night_lock_of(night_id) if night_id is not None else None
    lock.require_api_unlock(night_lock)  # adding a game to a locked night changes its money: the night's token
    game_id = table.start_game(
        get_store(),
        current_catalog(),
        ruleset,
        players,
        field(data, "first_dealer", str, required=False),
        1 if penny is None else penny,
        teams=teams,
        night_id=night_id,
        pin=field(data, "pin", str, required=False),
        seen_night_pin=night_lock.pin_hash if night_lock else None,
    )
    return state(load(game_id), 201)


@bp.get("/games/<int:game_id>")
def get_game(game_id: int) -> ResponseReturnValue:
    return state(load(game_id))


@bp.post("/games/<int:game_id>/rematch")
@idempotent
def rematch(game_id: int) -> ResponseReturnValue:
    """A finished game played again: same players and seats, the deal one seat on, the same lock."""
    store = get_store()
    loaded = table.load_game(store, current_catalog(), game_id)
    lock.require_api_unlock(lock.game_lock(store, loaded.row))
    game_id, new = table.rematch(store, current_catalog(), loaded)
    return state(load(game_id), 201 if new else 200)


# One rule for both methods: with two, werkzeug answers 405 instead of 404 for an id out of range.
@bp.route("/games/<int:game_id>/notes", methods=["GET", "PUT"])
@idempotent
def game_notes(game_id: int) -> ResponseReturnValue:
    """The game's note; PUT ``{"notes": ..., "edits": n}`` replaces it (≤ 500 characters; with
    ``edits``, refused with 409 if it was edited since)."""
    store = get_store()
    if request.method == "PUT":
        lock.require_api_unlock(lock.game_lock(store, store.game(game_id)))
        keep_notes("game", game_id, body())
    row = store.game(game_id)
    return jsonify(notes=row["notes"], edits=row["notes_edits"])


@bp.route("/nights/<int:night_id>/notes", methods=["GET", "PUT"])
@idempotent
def night_notes(night_id: int) -> ResponseReturnValue:
    """The night's note, read and replaced as a game's."""
    store = get_store()
    if request.method == "PUT":
        lock.require_api_unlock(lock.night_lock(store.night(night_id)))
        keep_notes("night", night_id, body())
    row = store.night(night_id)
    return jsonify(notes=row["notes"], edits=row["notes_edits"])


class NoteChanged(Exception):
    """A note edited since the client read it (its ``edits`` count moved on)."""


@bp.errorhandler(NoteChanged)
def note_changed(error: NoteChanged) -> ResponseReturnValue:
    return jsonify(error=str(error)), 409


def keep_notes(kind: str, row_id: int, data: dict[str, Any]) -> None:
    try:
        kept = table.keep_note(get_store(), kind, row_id, field(data, "notes", str),
                               field(data, "edits", int, required=False))  # fmt: skip
    except NoteError as error:
        raise BadRequest(f"'notes': {error}") from None
    if not kept:
        raise NoteChanged(
            f"the {kind}'s note was edited since it was read: read it again (GET {request.path}), "
            "then send yours with its 'edits'"
        )


@bp.get("/games/<int:game_id>/history")
def history(game_id: int) -> ResponseReturnValue:
    """Every entry, oldest first, with its id (ids are numbered across all games): what ``undo`` takes."""
    loaded = table.load_game(get_store(), current_catalog(), game_id)
    return jsonify(describe_events(loaded.game, loaded.times))


@bp.post("/games/<int:game_id>/buys")
@idempotent
def buy(game_id: int) -> ResponseReturnValue:
    data = body()
    game = table.record_buy(
        get_store(),
        current_catalog(),
        load_for_writing(game_id),
        field(data, "player", str),
        version=field(data, "version", int, required=False),
        round_number=field(data, "round", int, required=False),
    )
    return state(game, 201)


def round_args(data: dict[str, Any]) -> dict[str, Any]:
    return {"went_out": field(data, "went_out", str), "caught": string_map(data, "caught")}


def record(game: Game, data: dict[str, Any], number: int | None) -> Game:
    """A round of a contract game, or a hand of a game played by sides."""
    version = field(data, "version", int, required=False)
    if game.ruleset.by_sides:
        went_out = field(data, "went_out", str, required=False)
        sides = field(data, "sides", list)
        return table.record_hand(get_store(), current_catalog(), game, went_out, sides, number=number, version=version)
    return table.record_round(get_store(), current_catalog(), game, number=number, version=version, **round_args(data))


@bp.post("/games/<int:game_id>/rounds")
@idempotent
def record_round(game_id: int) -> ResponseReturnValue:
    """The next round; with ``"round": n`` only if n is the round being played (a retry of a round
    that was recorded meanwhile is refused with 409, naming it)."""
    data, game = body(), load_for_writing(game_id)
    meant = field(data, "round", int, required=False)
    if meant is not None and meant <= len(game.rounds):
        word = game.ruleset.round_word
        raise AlreadyRecorded(
            f"{word} {meant} is already recorded: correct it with PUT /api/games/{game_id}/rounds/{meant}",
            game.version,
        )
    if meant is not None and meant != game.current_round:
        raise GameError(f"{game.ruleset.round_word} {meant} has not started: the next is {game.current_round}")
    return state(record(game, data, None), 201)


@bp.put("/games/<int:game_id>/rounds/<int:number>")
@idempotent
def correct_round(game_id: int, number: int) -> ResponseReturnValue:
    data = body()
    game = load_for_writing(game_id)
    if not 1 <= number <= len(game.rounds):
        raise GameError(f"round {number} has not been recorded; record it with POST .../rounds")
    return state(record(game, data, number))


@bp.post("/games/<int:game_id>/undo")
@idempotent
def undo(game_id: int) -> ResponseReturnValue:
    data = body()
    version = field(data, "version", int, required=False)
    return state(
        table.undo(get_store(), current_catalog(), load_for_writing(game_id), field(data, "event", int), version), 201
    )


@bp.errorhandler(table.DraftRefused)
def draft_refused(error: table.DraftRefused) -> ResponseReturnValue:
    return jsonify(error=str(error), player=error.player), 409


@bp.put("/games/<int:game_id>/rounds/<int:number>/drafts/<player>")
def keep_draft(game_id: int, number: int, player: str) -> ResponseReturnValue:
    """A player's own hand for the round it was typed in, from their phone: {"cards": "K 7"} (or, by
    sides, {"points": 35}); for a round saved meanwhile, with "correction": true, a request the
    scorekeeper's correction form offers. A draft, not an entry: no lock, version or money moves."""
    data = body()
    cards = field(data, "cards", str, required=False)
    points = field(data, "points", int, required=False, low=0, high=table.MAX_DRAFT_POINTS)
    correction = field(data, "correction", bool, required=False) or False
    phone_is = session.get("phone_is", {}).get(str(game_id))
    store, catalog = get_store(), current_catalog()
    return jsonify(table.keep_draft(store, catalog, game_id, number, player, cards, points, phone_is, correction))


@bp.put("/games/<int:game_id>/phone")
def phone_is(game_id: int) -> ResponseReturnValue:
    """Which player this phone is, for this game ({"player": "Bob"}, or null to say none): kept with the
    phone's session, so its drafts are only ever for that player."""
    game = load(game_id)
    name = field(body(), "player", str, required=False)
    chosen = dict(session.get("phone_is", {}))
    if name is None:
        chosen.pop(str(game_id), None)
    else:
        chosen[str(game_id)] = game.player_named(name)
    session["phone_is"] = chosen
    return jsonify(player=chosen.get(str(game_id)))


@bp.get("/games/<int:game_id>/rounds/<int:number>/drafts")
def drafts(game_id: int, number: int) -> ResponseReturnValue:
    """The drafts of a round, as the players' phones sent them, each scored as the rules score it now."""
    response = jsonify(round=number, drafts=table.drafts(get_store(), current_catalog(), game_id, number))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/games/<int:game_id>/preview")
def preview(game_id: int) -> ResponseReturnValue:
    """Points of a round or hand being entered, without saving it (the live totals of the form)."""
    data = body()
    number = field(data, "round", int, required=False)
    game = load(game_id)
    if game.ruleset.by_sides:
        went_out = field(data, "went_out", str, required=False)
        hand = table.preview_hand(game, went_out, field(data, "sides", list), number)
        return jsonify(
            sides={name: {"score": score, "total": hand.totals[name]} for name, score in hand.scores.items()},
            problem=hand.problem,
            player=hand.player,
        )
    after = table.preview_round(game, number=number, **round_args(data))
    result = after.rounds[(number or len(after.rounds)) - 1]
    return jsonify(
        {name: {"points": r.points, "pennies": r.pennies, "cards": len(r.cards)} for name, r in result.results.items()}
    )


@bp.post("/melds/check")
def check_melds() -> ResponseReturnValue:
    """Is this legal here? First down, a later meld, a lay-off, or a whole hand searched for the contract."""
    data = body()
    ruleset = current_catalog().get(field(data, "ruleset", str))
    number = field(data, "round", int)
    stage = field(data, "stage", str)
    melds = field(data, "melds", list)
    if not all(isinstance(meld, str) for meld in melds):
        raise BadRequest("'melds' must be a list of strings of cards")
    verdict = meld_checks.check(
        ruleset,
        number,
        stage,
        melds,
        onto=field(data, "onto", str, required=False) or "",
        side_score=field(data, "side_score", int, required=False) or 0,
    )
    return jsonify(verdict.to_json())


@bp.post("/nights")
@idempotent
def create_night() -> ResponseReturnValue:
    data = body(empty_allowed=True)
    name = field(data, "name", str, required=False) or ""
    return jsonify(id=table.create_night(get_store(), name, money_mode(data) or MoneyMode.TABLE)), 201


def money_mode(data: dict[str, Any]) -> MoneyMode | None:
    money: str | None = field(data, "money", str, required=False)
    if money is None:
        return None
    try:
        return MoneyMode.parse(money, "'money'")
    except ValueError as error:
        raise BadRequest(str(error)) from None


@bp.post("/nights/<int:night_id>/money")
@idempotent
def set_money(night_id: int) -> ResponseReturnValue:
    """Change how an open night pays: "table" or "paper" (a locked night needs its token)."""
    data = body()
    store = get_store()
    night = store.night(night_id)
    lock.require_api_unlock(lock.night_lock(night))
    with store.writing():  # the change and the report it answers with stand or fall together
        table.set_money_mode(store, night_id, money_mode(data) or MoneyMode(night["money"]))
        return jsonify(night_report(store, current_catalog(), night_id).to_json())


@bp.post("/nights/<int:night_id>/payments")
@idempotent
def pay(night_id: int) -> ResponseReturnValue:
    """A payment made on paper, ``{"from", "to", "cents"}``: kept as money handed over; 201 and the
    night's report (a locked night needs its token)."""
    data = body()
    store = get_store()
    lock.require_api_unlock(lock.night_lock(store.night(night_id)))
    payer, payee = field(data, "from", str), field(data, "to", str)
    table.pay(store, current_catalog(), night_id, payer, payee, field(data, "cents", int))
    return jsonify(night_report(store, current_catalog(), night_id).to_json()), 201


@bp.post("/nights/<int:night_id>/payments/<int:payment_id>")
@idempotent
def take_back(night_id: int, payment_id: int) -> ResponseReturnValue:
    """``{"undone": true}``: not paid after all; ``false``: paid after all. The night's report."""
    data = body()
    store = get_store()
    lock.require_api_unlock(lock.night_lock(store.night(night_id)))
    undone = data.get("undone")
    if not isinstance(undone, bool):
        raise BadRequest("'undone' must be true (not paid after all) or false (paid after all)")
    table.take_back_payment(store, night_id, payment_id, undone)
    return jsonify(night_report(store, current_catalog(), night_id).to_json())


@bp.get("/nights/<int:night_id>")
def get_night(night_id: int) -> ResponseReturnValue:
    return jsonify(night_report(get_store(), current_catalog(), night_id).to_json())


@bp.post("/games/<int:game_id>/unlock")
def unlock(game_id: int) -> ResponseReturnValue:
    """Trade the PIN for a bearer token that opens the game (and, if the PIN is its night's, the night)."""
    data = body()
    store = get_store()
    return unlocked(lock.game_lock(store, store.game(game_id)), data)


@bp.post("/nights/<int:night_id>/unlock")
def unlock_night(night_id: int) -> ResponseReturnValue:
    """Trade a locked night's PIN for a bearer token that opens every game of the night, and the night."""
    return unlocked(lock.night_lock(get_store().night(night_id)), body())


def night_lock_of(night_id: int) -> lock.Lock | None:
    """The lock of a night; none for a night that does not exist (start_game says so, with 400)."""
    try:
        return lock.night_lock(get_store().night(night_id))
    except NotFound:
        return None


def unlocked(target: lock.Lock | None, data: dict[str, Any]) -> ResponseReturnValue:
    if target is None:
        return jsonify(token=None, locked=False)
    lock.verify_pin(get_store(), target, field(data, "pin", str))
    return jsonify(token=lock.issue_token(target), locked=True, lock=target.key)


# --- players' records (issue 29) ------------------------------------------------------------------


def season_asked() -> records.Season:
    """``?ruleset=&from=&to=`` (or ``year=``); a bad one is a 400 that names it."""
    return records.parse_season(request.args, records.known_rulesets(get_store(), current_catalog()))


@bp.get("/players")
def players() -> ResponseReturnValue:
    """``[{"id", "name"}]``: everyone who has played, by name."""
    return jsonify(stored.players(get_store()))


@bp.get("/players/<int:player_id>")
def player(player_id: int) -> ResponseReturnValue:
    """A player's record over the finished games asked for: ``games``, ``wins``, ``win_rate`` (a
    fraction), ``longest_streak``, ``money_cents``, ``points_per_round`` (with a ruleset), ``best_round``,
    ``worst_round``, money by month and year, and ``rating`` only while the house has it on."""
    store = get_store()
    found = store.player(player_id)
    season = season_asked()
    answer: dict[str, Any] = {"id": found["id"], "name": found["name"], **season_fields(season)}
    answer |= records.player_record(store, current_catalog(), player_id, season)
    rating = records.rating_of(store, current_app.config, player_id)
    if rating is not None:
        answer["rating"] = rating
    return jsonify(answer)


@bp.get("/players/<int:player_id>/versus/<int:other_id>")
def versus(player_id: int, other_id: int) -> ResponseReturnValue:
    """Two players' finished games against each other: ``games``, ``ahead``, ``behind`` (the first
    player's view) and ``money_cents``, the first's money minus the second's over those games."""
    store = get_store()
    for someone in (player_id, other_id):
        store.player(someone)  # 404 naming a player who does not exist
    season = season_asked()
    return jsonify({"player": player_id, "other": other_id, **season_fields(season),
                    **records.versus_record(store, player_id, other_id, season)})  # fmt: skip


def season_fields(season: records.Season) -> dict[str, str | None]:
    return {"ruleset": season.ruleset or None, "from": season.start, "to": season.end}
