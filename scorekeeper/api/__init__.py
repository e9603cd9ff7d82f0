"""The JSON API: the same engine and store as the pages. Errors are ``{"error": "..."}`` with a 4xx."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Blueprint, current_app, jsonify, request, session
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import UnsupportedMediaType
from werkzeug.wrappers import Response

from .. import loading, meld_checks
from ..access import api_asker, issue_token
from ..catalog import UnknownRuleset
from ..commands import Answered, EntryKey, KeyReused, run
from ..commands.drafts import KeepDraft
from ..commands.games import AlreadyRecorded, GameEntry, RecordBuy, RecordHand, RecordRound, Rematch, StartGame, Undo
from ..commands.locks import Lock, LockError, TooManyTries, game_lock, night_lock, verify_pin
from ..commands.nights import CreateNight, KeepNote, Party, Pay, SetMoneyMode, TakeBackPayment
from ..commands.runner import Command
from ..drafts import MAX_DRAFT_POINTS, DraftRefused
from ..drafts import drafts as round_drafts
from ..history import describe_events
from ..night_report import night_report
from ..notes import NoteError
from ..players import records
from ..players.records import SeasonError
from ..rules.game import Game
from ..rules.game_json import game_json
from ..rules.ledger import MoneyMode
from ..rules.setup import MAX_PENNY_CENTS, GameError
from ..sharing import night_link
from ..store import NotFound, StaleWrite, get_store
from ..store import records as stored
from ..web import current_catalog
from .bodies import BadRequest, body, field

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

    done = run(get_store(), current_catalog(), command, api_asker(), entry_key(), answer=kept)
    if isinstance(done, Answered):
        replay = current_app.response_class(done.body, done.status, mimetype="application/json")
        replay.headers["Idempotent-Replayed"] = "true"
        return replay
    return made[0] if made else respond(done)


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
@bp.errorhandler(loading.GameNotFound)
def not_found(error: LookupError) -> ResponseReturnValue:
    return jsonify(error=str(error.args[0])), 404


@bp.errorhandler(LockError)
def locked(error: LockError) -> ResponseReturnValue:
    response = jsonify(error=str(error))
    if isinstance(error, TooManyTries):
        response.headers["Retry-After"] = str(error.seconds)  # a client can wait it out without reading the text
    return response, error.status


@bp.errorhandler(StaleWrite)
def stale(error: StaleWrite) -> ResponseReturnValue:
    return jsonify(error=str(error), version=error.actual), 409


@bp.errorhandler(AlreadyRecorded)
def already_recorded(error: AlreadyRecorded) -> ResponseReturnValue:
    """A new round for one recorded meanwhile: said with the request that corrects it."""
    where = f"/api/games/{error.game_id}/rounds/{error.number}"
    message = f"{error.word} {error.number} is already recorded: correct it with PUT {where}"
    return jsonify(error=message, version=error.version), 409


@bp.errorhandler(KeyReused)
def key_reused(error: KeyReused) -> ResponseReturnValue:
    message = f"this {IDEMPOTENCY_KEY} was used for another request: send a new key for a new entry"
    return jsonify(error=message), 422


@bp.get("/rulesets")
def rulesets() -> ResponseReturnValue:
    return jsonify([ruleset.to_summary() for ruleset in current_catalog().rulesets.values()])


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    data = body()
    players = field(data, "players", list)
    if not all(isinstance(name, str) for name in players):
        raise BadRequest("'players' must be a list of names")
    penny = field(data, "penny_cents", int, required=False, high=MAX_PENNY_CENTS)
    teams = field(data, "teams", list, required=False)
    if teams is not None and not all(isinstance(t, list) and all(isinstance(n, str) for n in t) for t in teams):
        raise BadRequest("'teams' must be a list of lists of player names")
    start = StartGame(
        ruleset_id=field(data, "ruleset", str),
        names=players,
        first_dealer=field(data, "first_dealer", str, required=False),
        penny_cents=1 if penny is None else penny,
        teams=teams,
        night_id=field(data, "night", int, required=False),
        pin=field(data, "pin", str, required=False),
    )
    return write(start, lambda game_id: game_answer(game_id, 201))


def game_answer(game_id: int, status: int) -> Response:
    """The answer to a write that starts a game: that game."""
    return state(load(game_id), status)


@bp.get("/games/<int:game_id>")
def get_game(game_id: int) -> ResponseReturnValue:
    return state(load(game_id))


@bp.post("/games/<int:game_id>/rematch")
def rematch(game_id: int) -> ResponseReturnValue:
    """A finished game played again: same players and seats, the deal one seat on, the same lock."""
    return write(Rematch(game_id), lambda made: game_answer(made[0], 201 if made[1] else 200))


# One rule for both methods: with two, werkzeug answers 405 instead of 404 for an id out of range.
@bp.route("/games/<int:game_id>/notes", methods=["GET", "PUT"])
def game_notes(game_id: int) -> ResponseReturnValue:
    """The game's note; PUT ``{"notes": ..., "edits": n}`` replaces it (≤ 500 characters; with
    ``edits``, refused with 409 if it was edited since)."""
    return notes_of("game", game_id)


@bp.route("/nights/<int:night_id>/notes", methods=["GET", "PUT"])
def night_notes(night_id: int) -> ResponseReturnValue:
    """The night's note, read and replaced as a game's."""
    return notes_of("night", night_id)


class NoteChanged(Exception):
    """A note edited since the client read it (its ``edits`` count moved on)."""


@bp.errorhandler(NoteChanged)
def note_changed(error: NoteChanged) -> ResponseReturnValue:
    return jsonify(error=str(error)), 409


def notes_of(kind: str, row_id: int) -> Response:
    if request.method == "GET":
        return note_answer(kind, row_id)
    data = body()
    note = KeepNote(kind, row_id, field(data, "notes", str), field(data, "edits", int, required=False))
    try:
        return write(note, lambda kept: note_answer(kind, row_id, kept))
    except NoteError as error:
        raise BadRequest(f"'notes': {error}") from None


def note_answer(kind: str, row_id: int, kept: bool = True) -> Response:
    if not kept:
        raise NoteChanged(
            f"the {kind}'s note was edited since it was read: read it again (GET {request.path}), "
            "then send yours with its 'edits'"
        )
    store = get_store()
    row = store.game(row_id) if kind == "game" else store.night(row_id)
    return respond_json({"notes": row["notes"], "edits": row["notes_edits"]})


@bp.get("/games/<int:game_id>/history")
def history(game_id: int) -> ResponseReturnValue:
    """Every entry, oldest first, with its id (ids are numbered across all games): what ``undo`` takes."""
    loaded = loading.load_game(get_store(), current_catalog(), game_id)
    return jsonify(describe_events(loaded.game, loaded.times))


@bp.post("/games/<int:game_id>/buys")
def buy(game_id: int) -> ResponseReturnValue:
    data = body()
    player, number = field(data, "player", str), field(data, "round", int, required=False)
    return write(RecordBuy(game_id=game_id, version=version_in(data), player=player, round=number), game_state(201))


def version_in(data: dict[str, Any]) -> int | None:
    version: int | None = field(data, "version", int, required=False)
    return version


def record(game: Game, data: dict[str, Any], number: int | None, drawn_for: int | None = None) -> GameEntry:
    """A round of a contract game, or a hand of a game played by sides, as a command."""
    if game.ruleset.by_sides:
        went_out = field(data, "went_out", str, required=False)
        sides = field(data, "sides", list)
        return RecordHand(
            game_id=game.id,
            version=version_in(data),
            went_out=went_out,
            sides=sides,
            number=number,
            drawn_for=drawn_for,
        )
    return RecordRound(
        game_id=game.id, version=version_in(data), number=number, drawn_for=drawn_for, **round_args(data)
    )


def round_args(data: dict[str, Any]) -> dict[str, Any]:
    return {"went_out": field(data, "went_out", str), "caught": string_map(data, "caught")}


@bp.post("/games/<int:game_id>/rounds")
def record_round(game_id: int) -> ResponseReturnValue:
    """The next round; with ``"round": n`` only if n is the round being played (a retry of a round
    that was recorded meanwhile is refused with 409, naming it). Without it, the round in play as
    this request found it: a round recorded by another phone meanwhile is refused just the same."""
    data, game = body(), load(game_id)
    meant = field(data, "round", int, required=False)
    return write(record(game, data, None, game.current_round if meant is None else meant), game_state(201))


@bp.put("/games/<int:game_id>/rounds/<int:number>")
def correct_round(game_id: int, number: int) -> ResponseReturnValue:
    data = body()
    game = load(game_id)
    if not 1 <= number <= len(game.rounds):
        raise GameError(f"round {number} has not been recorded; record it with POST .../rounds")
    return write(record(game, data, number), game_state())


@bp.post("/games/<int:game_id>/undo")
def undo(game_id: int) -> ResponseReturnValue:
    data = body()
    return write(Undo(game_id=game_id, version=version_in(data), event_id=field(data, "event", int)), game_state(201))


@bp.errorhandler(DraftRefused)
def draft_refused(error: DraftRefused) -> ResponseReturnValue:
    return jsonify(error=str(error), player=error.player), 409


@bp.put("/games/<int:game_id>/rounds/<int:number>/drafts/<player>")
def keep_draft(game_id: int, number: int, player: str) -> ResponseReturnValue:
    """A player's own hand for the round it was typed in, from their phone: {"cards": "K 7"} (or, by
    sides, {"points": 35}); for a round saved meanwhile, with "correction": true, a request the
    scorekeeper's correction form offers. A draft, not an entry: no lock, version or money moves."""
    data = body()
    draft = KeepDraft(
        game_id=game_id,
        number=number,
        player=player,
        cards=field(data, "cards", str, required=False),
        points=field(data, "points", int, required=False, low=0, high=MAX_DRAFT_POINTS),
        phone_is=session.get("phone_is", {}).get(str(game_id)),
        correction=field(data, "correction", bool, required=False) or False,
    )
    return write(draft, respond_json)


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
    response = jsonify(round=number, drafts=round_drafts(get_store(), current_catalog(), game_id, number))
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
        hand = loading.preview_hand(game, went_out, field(data, "sides", list), number)
        return jsonify(
            sides={name: {"score": score, "total": hand.totals[name]} for name, score in hand.scores.items()},
            problem=hand.problem,
            player=hand.player,
        )
    after = loading.preview_round(game, number=number, **round_args(data))
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
def create_night() -> ResponseReturnValue:
    data = body(empty_allowed=True)
    name = field(data, "name", str, required=False) or ""
    night = CreateNight(name, money_mode(data) or MoneyMode.TABLE)
    return write(night, lambda night_id: respond_json({"id": night_id}, 201))


def money_mode(data: dict[str, Any]) -> MoneyMode | None:
    money: str | None = field(data, "money", str, required=False)
    if money is None:
        return None
    try:
        return MoneyMode.parse(money, "'money'")
    except ValueError as error:
        raise BadRequest(str(error)) from None


@bp.post("/nights/<int:night_id>/money")
def set_money(night_id: int) -> ResponseReturnValue:
    """Change how an open night pays: "table" or "paper" (a locked night needs its token)."""
    mode = money_mode(body()) or MoneyMode(get_store().night(night_id)["money"])
    return write(SetMoneyMode(night_id, mode), lambda _: night_answer(night_id))


def night_answer(night_id: int, status: int = 200) -> Response:
    return respond_json(night_report(get_store(), current_catalog(), night_id).to_json(), status)


@bp.post("/nights/<int:night_id>/payments")
def pay(night_id: int) -> ResponseReturnValue:
    """A payment made on paper, ``{"from", "to", "cents"}`` (the bowl: ``"from_bowl"`` or
    ``"to_bowl": true``): kept as money handed over; 201 and the night's report (a locked night needs
    its token)."""
    data = body()
    payment = Pay(night_id, party_in(data, "from"), party_in(data, "to"), field(data, "cents", int))
    return write(payment, lambda _: night_answer(night_id, 201))


def party_in(data: dict[str, Any], side: str) -> Party:
    """``"from": "Ann"`` (a player by name), or ``"from_bowl": true`` (the bowl, never a name)."""
    if field(data, f"{side}_bowl", bool, required=False):
        return Party(bowl=True)
    return Party(field(data, side, str))


@bp.post("/nights/<int:night_id>/payments/<int:payment_id>")
def take_back(night_id: int, payment_id: int) -> ResponseReturnValue:
    """``{"undone": true}``: not paid after all; ``false``: paid after all. The night's report."""
    undone = body().get("undone")
    if not isinstance(undone, bool):
        raise BadRequest("'undone' must be true (not paid after all) or false (paid after all)")
    return write(TakeBackPayment(night_id, payment_id, undone), lambda _: night_answer(night_id))


@bp.get("/nights/<int:night_id>")
def get_night(night_id: int) -> ResponseReturnValue:
    """The night's money, and ``share_url``: the link its phones and tablet open once for the evening."""
    report = night_report(get_store(), current_catalog(), night_id)
    return jsonify({**report.to_json(), "share_url": night_link(report.night["share_token"])})


@bp.post("/games/<int:game_id>/unlock")
def unlock(game_id: int) -> ResponseReturnValue:
    """Trade the PIN for a bearer token that opens the game (and, if the PIN is its night's, the night)."""
    data = body()
    store = get_store()
    return unlocked(game_lock(store, store.game(game_id)), data)


@bp.post("/nights/<int:night_id>/unlock")
def unlock_night(night_id: int) -> ResponseReturnValue:
    """Trade a locked night's PIN for a bearer token that opens every game of the night, and the night."""
    return unlocked(night_lock(get_store().night(night_id)), body())


def unlocked(target: Lock | None, data: dict[str, Any]) -> ResponseReturnValue:
    if target is None:
        return jsonify(token=None, locked=False)
    verify_pin(get_store(), target, field(data, "pin", str))
    return jsonify(token=issue_token(target), locked=True, lock=target.key)


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
    return jsonify(
        {
            "player": player_id,
            "other": other_id,
            **season_fields(season),
            **records.versus_record(store, player_id, other_id, season),
        }
    )


def season_fields(season: records.Season) -> dict[str, str | None]:
    return {"ruleset": season.ruleset or None, "from": season.start, "to": season.end}
