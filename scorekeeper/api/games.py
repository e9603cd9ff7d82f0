"""The API of games: rulesets, games, rounds, buys, undo, rematch, notes, history, drafts, previews
and the meld checker."""

from __future__ import annotations

from typing import Any

from flask import jsonify, request, session
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from ..commands.drafts import KeepDraft
from ..commands.games import GameEntry, RecordBuy, RecordHand, RecordRound, Rematch, StartGame, Undo
from ..commands.nights import KeepNote
from ..reads import loading, meld_checks
from ..reads.catalog import Catalog, UnknownRuleset
from ..reads.drafts import MAX_DRAFT_POINTS, seen_drafts
from ..reads.drafts import drafts as round_drafts
from ..reads.history import describe_events
from ..reads.notes import NoteError
from ..rules.game import Game
from ..rules.rulesets import Ruleset, ruleset_document
from ..rules.setup import MAX_PENNY_CENTS, GameError
from ..store import get_store
from ..web import current_catalog
from .base import bp, game_state, load, respond_json, state, string_map, write
from .bodies import BadRequest, body, field


@bp.get("/rulesets")
def rulesets() -> ResponseReturnValue:
    catalog = current_catalog()
    return jsonify([ruleset_answer(catalog, ruleset) for ruleset in catalog.rulesets.values()])


@bp.get("/rulesets/<ruleset_id>")
def ruleset(ruleset_id: str) -> ResponseReturnValue:
    """One ruleset, whole (the document its house-rules form and its files are made of), with its
    current ``version`` and whether it was made here (``house``)."""
    catalog = current_catalog()
    found = catalog.rulesets.get(ruleset_id)
    if found is None:
        return respond_json({"error": str(UnknownRuleset(ruleset_id))}, 404)
    return jsonify(ruleset_answer(catalog, found) | {"document": ruleset_document(found)})


def ruleset_answer(catalog: Catalog, ruleset: Ruleset) -> dict[str, Any]:
    return ruleset.to_summary() | {"version": catalog.versions.get(ruleset.id), "house": ruleset.id in catalog.house}


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


@bp.post("/games/<int:game_id>/rounds/<int:number>/can-go-down")
def can_go_down(game_id: int, number: int) -> ResponseReturnValue:
    """ "Can I go down with these?" ``{"cards": "7S 7H JKR …"}`` for a round of the game, under the
    rules it is played under: an arrangement, or what is missing. Read-only: nothing is stored, the
    game's version and history do not move, the scorekeeper is not told."""
    cards = field(body(), "cards", str)
    return jsonify(meld_checks.go_down(load(game_id).ruleset, number, cards).to_json())


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
            drafts_seen=drafts_seen_in(data),
        )
    return RecordRound(
        game_id=game.id,
        version=version_in(data),
        number=number,
        drawn_for=drawn_for,
        drafts_seen=drafts_seen_in(data),
        **round_args(data),
    )


def drafts_seen_in(data: dict[str, Any]) -> dict[str, str]:
    """The players' drafts the client showed when it saved (issue 58): those it did not see, and the
    save did not take, stay as correction requests."""
    try:
        return seen_drafts(data.get("drafts_seen", {}))
    except ValueError as error:
        raise BadRequest(f"drafts_seen: {error}") from None


def round_args(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "went_out": field(data, "went_out", str),
        "caught": string_map(data, "caught"),
        "at_once": field(data, "at_once", bool, required=False) or False,
        "cut_exactly": field(data, "cut_exactly", str, required=False) or None,
    }


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
