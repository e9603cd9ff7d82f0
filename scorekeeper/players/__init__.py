"""Players across nights: a history page each, and the leaderboard."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template
from flask.typing import ResponseReturnValue

from .. import service
from ..printing.chart import Chart, progression_svg
from ..store import NotFound, get_store

bp = Blueprint("players", __name__)
CHARTED_GAMES = 10  # charts for the latest games on a history page


@bp.get("/players")
def leaderboard() -> ResponseReturnValue:
    rows = get_store().leaderboard()
    for row in rows:
        row["per_round"] = round(row["points"] / row["rounds"], 1) if row["rounds"] else None
    return render_template("leaderboard.html", rows=rows)


@bp.get("/players/<int:player_id>")
def history(player_id: int) -> ResponseReturnValue:
    store = get_store()
    try:
        player = store.player(player_id)
    except NotFound:
        abort(404)
    games = store.player_history(player_id)
    charts = {}
    for row in games[:CHARTED_GAMES]:
        game = service.load_game(store, current_app.extensions["rulesets"], row["game_id"])
        if game.rounds:
            charts[row["game_id"]] = progression_svg(
                game.competitors, game.running_totals(), Chart(width=520, height=200, legend_width=130)
            )
    return render_template("player.html", player=player, games=games, charts=charts)
