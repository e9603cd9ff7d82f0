"""What the table watches: the live view (a read-only scorepad behind an unguessable share link)
and the table view (standings in big numbers to prop up in the middle of the table), both
refreshing themselves when the game's version moves."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from .. import loading
from ..rules.game_json import describe_round
from ..store import NotFound, get_store
from ..web import current_catalog

bp = Blueprint("live", __name__)


def shared_game_id(token: str) -> tuple[int, int]:
    """(game id, version) behind the link; 404 for a link that opens nothing."""
    try:
        return get_store().shown_version_by_share_token(token)
    except NotFound:
        abort(404)


def game_context(game_id: int) -> dict[str, object]:
    """What both views draw. The version is read first: an entry made while the page is drawn
    moves it past the one the page carries, so the next poll fetches it."""
    store = get_store()
    try:
        shown_version = store.shown_version(game_id)
        loaded = loading.load_game(store, current_catalog(), game_id)
    except (NotFound, loading.GameNotFound):
        abort(404)
    game, night_id = loaded.game, loaded.row["night_id"]
    return {
        "game": game,
        "round": describe_round(game.setup, game.current_round) if game.current_round else None,
        "shown_version": shown_version,
        "notes": loaded.row["notes"],
        "night_notes": store.night(night_id)["notes"] if night_id is not None else "",
    }


def version_answer(version: int) -> Response:
    """What every phone at the table polls: one integer, read without replaying the game; and when it
    has not moved since the phone last asked (its If-None-Match), 304 and no body at all. The phone's
    browser keeps the last answer and asks again every time (no-cache: revalidate, never guess)."""
    etag = f"v{version}"
    if request.if_none_match.contains_weak(etag):  # the usual answer: checked before anything is built
        answer = Response(status=304)
    else:
        answer = jsonify(version=version)
    answer.set_etag(etag)
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.get("/live/<token>")
def view(token: str) -> ResponseReturnValue:
    return render_template("live.html", token=token, **game_context(shared_game_id(token)[0]))


@bp.get("/live/<token>/fragment")
def fragment(token: str) -> ResponseReturnValue:
    """Just the changing part, fetched by the page when the version moves."""
    return render_template("_live_fragment_page.html", token=token, **game_context(shared_game_id(token)[0]))


@bp.get("/live/<token>/state")
def state(token: str) -> ResponseReturnValue:
    return version_answer(shared_game_id(token)[1])


@bp.get("/games/<int:game_id>/table")
def table_view(game_id: int) -> ResponseReturnValue:
    return render_template("table_view.html", **game_context(game_id))


@bp.get("/games/<int:game_id>/table/fragment")
def table_fragment(game_id: int) -> ResponseReturnValue:
    return render_template("_table_fragment.html", **game_context(game_id))


@bp.get("/games/<int:game_id>/table/state")
def table_state(game_id: int) -> ResponseReturnValue:
    try:
        return version_answer(get_store().shown_version(game_id))
    except NotFound:
        abort(404)
