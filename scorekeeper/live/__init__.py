"""The live view: a read-only scorepad behind an unguessable share link, refreshing itself."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify, render_template
from flask.typing import ResponseReturnValue

from .. import service
from ..rules.game import Game, describe_round
from ..store import NotFound, get_store

bp = Blueprint("live", __name__)


def shared_game(token: str) -> Game:
    store = get_store()
    try:
        game_id = store.game_by_share_token(token)
    except NotFound:
        abort(404)
    return service.load_game(store, current_app.extensions["rulesets"], game_id)


def context(token: str) -> dict[str, object]:
    game = shared_game(token)
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
    response = jsonify(version=shared_game(token).version)
    response.headers["Cache-Control"] = "no-store"
    return response
