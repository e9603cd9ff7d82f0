"""The live view: a read-only scorepad behind an unguessable share link, refreshing itself."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, render_template
from flask.typing import ResponseReturnValue

from .. import table
from ..rules.game import describe_round
from ..store import NotFound, get_store
from ..web import current_catalog

bp = Blueprint("live", __name__)


def shared_game_id(token: str) -> tuple[int, int]:
    """(game id, version) behind the link; 404 for a link that opens nothing."""
    try:
        return get_store().revision_by_share_token(token)
    except NotFound:
        abort(404)


def context(token: str) -> dict[str, object]:
    game_id, _ = shared_game_id(token)
    game = table.load_game(get_store(), current_catalog(), game_id).game
    current = describe_round(game.setup, game.current_round) if game.current_round else None
    return {"game": game, "round": current, "token": token}


@bp.get("/live/<token>")
def view(token: str) -> ResponseReturnValue:
    return render_template("live.html", **context(token))


@bp.get("/live/<token>/fragment")
def fragment(token: str) -> ResponseReturnValue:
    """Just the changing part, fetched by the page when the version moves."""
    return render_template("_live_fragment_page.html", **context(token))


@bp.get("/live/<token>/state")
def state(token: str) -> ResponseReturnValue:
    """What every phone at the table polls: one integer, read without replaying the game."""
    response = jsonify(version=shared_game_id(token)[1])
    response.headers["Cache-Control"] = "no-store"
    return response
