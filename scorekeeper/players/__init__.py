"""Players across nights: a history page each, and the leaderboard."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from flask.typing import ResponseReturnValue

from .. import table
from ..forms import whole_number
from ..printing.chart import Chart, progression_svg
from ..rules.rulesets import Winner
from ..store import NotFound, get_store
from ..web import current_catalog

bp = Blueprint("players", __name__)
PAGE_SIZE = 20
CHARTED_GAMES = 5  # charts for the latest games of a page


def page_marker(text: str) -> int:
    """?before=<game id>: a row id (anything else is ignored, as if absent)."""
    value = whole_number(text)
    if value is None or not 0 < value < 2**63:
        raise ValueError(f"{text!r} is not a game id")
    return value


@bp.get("/players")
def leaderboard() -> ResponseReturnValue:
    return render_template("leaderboard.html", rows=get_store().leaderboard(), rulesets=current_catalog().rulesets)


@bp.get("/players/<int:player_id>")
def history(player_id: int) -> ResponseReturnValue:
    store = get_store()
    try:
        player = store.player(player_id)
    except NotFound:
        abort(404)
    before = request.args.get("before", type=page_marker)
    games = store.player_history(player_id, PAGE_SIZE + 1, before)
    older = games[PAGE_SIZE - 1]["game_id"] if len(games) > PAGE_SIZE else None
    games = games[:PAGE_SIZE]
    charts = {}
    for row in games[:CHARTED_GAMES]:
        game = table.load_game(store, current_catalog(), row["game_id"]).game
        if game.rounds:
            charts[row["game_id"]] = progression_svg(
                game.competitors, game.running_totals(), Chart(width=520, height=200, legend_width=130)
            )
    return render_template(
        "player.html",
        player=player,
        games=games,
        charts=charts,
        stats=store.player_stats(player_id),
        older=older,
        rulesets=current_catalog().rulesets,
        unknown_winner=Winner.LOWEST,  # a ruleset no longer installed: read as the penny games are
    )
