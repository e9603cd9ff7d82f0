"""Players across nights: a page each (their record and their games), head to head, the
leaderboard and its seasons (with a printable summary)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ..commands.host import MergePlayers, RenamePlayer
from ..commands.locks import LockError
from ..commands.ratings import SetRated
from ..printing import paper, pdf_response
from ..printing.chart import Chart, money_svg, progression_svg
from ..reads import loading
from ..rules.setup import GameError
from ..store import NotFound, Store, get_store
from ..store import records as stored
from ..store.backups import BackupFailed
from ..store.rows import PlayerRow
from ..web import backed_up, current_catalog, page_write, rating_worker
from ..web.forms import whole_number
from ..web.words import written_day
from . import page, records
from .records import Season, SeasonError

bp = Blueprint("players", __name__)
PAGE_SIZE = 20
CHARTED_GAMES = 5  # charts for the latest games of a page


def page_marker(text: str) -> int:
    """?before=<game id>: a row id (anything else is ignored, as if absent)."""
    value = whole_number(text)
    if value is None or not 0 < value < 2**63:
        raise ValueError(f"{text!r} is not a game id")
    return value


def season_from_request() -> Season:
    """The filter of the page asked for; a bad one is a 400 that names it."""
    try:
        return records.parse_season(request.args, records.known_rulesets(get_store(), current_catalog()))
    except SeasonError as error:
        abort(400, str(error))


def filter_choices() -> dict[str, object]:
    """What the season filter offers: the rulesets and the years played."""
    store = get_store()
    return {
        "ruleset_choices": [(r.id, r.name) for r in current_catalog().rulesets.values()],
        "year_choices": stored.years_played(store),
        "year_chosen": request.args.get("year", ""),
    }


@bp.get("/players")
def leaderboard() -> ResponseReturnValue:
    """All time, a table per ruleset; with a season (a year, dates, a ruleset): that season's lines."""
    season = season_from_request()
    store, catalog = get_store(), current_catalog()
    board = records.season_board(store, catalog, season) if season != Season() else None
    return render_template(
        "leaderboard.html",
        rows=records.all_time_board(store.leaderboard(), catalog) if board is None else [],
        board=board,
        highlights=records.season_highlights(board) if board else None,
        season=season,
        season_words=season.describe(catalog),
        rulesets=catalog.rulesets,
        **filter_choices(),
    )


@bp.get("/players/season.pdf")
def season_pdf() -> ResponseReturnValue:
    """The season summary to print: top finishers, the season's records, each player's line."""
    season = season_from_request()
    store, catalog = get_store(), current_catalog()
    board = records.season_board(store, catalog, season)
    html = render_template(
        "pdf/season.html",
        title=f"Season summary · {season.describe(catalog)}",
        date=written_day(date.today()),
        board=board,
        highlights=records.season_highlights(board),
        ruleset=catalog.rulesets.get(season.ruleset),
        season=season,
        paper=paper(),
        landscape=False,
    )
    return pdf_response(html, "season.pdf")


@bp.get("/players/<int:player_id>/versus/<int:other_id>")
def versus(player_id: int, other_id: int) -> ResponseReturnValue:
    store = get_store()
    try:
        player, other = store.player(player_id), store.player(other_id)
    except NotFound:
        abort(404)
    season = season_from_request()
    return render_template(
        "versus.html",
        player=player,
        other=other,
        season=season,
        season_words=season.describe(current_catalog()),
        versus=records.versus_record(store, player_id, other_id, season),
        **filter_choices(),
    )


@bp.get("/players/<int:player_id>")
def history(player_id: int) -> ResponseReturnValue:
    store = get_store()
    try:
        player = store.player(player_id)
    except NotFound:
        abort(404)
    return render_template("player.html", **player_page(store, player, request.args.get("before", type=page_marker)))


def player_page(store: Store, player: PlayerRow, before: int | None) -> dict[str, Any]:
    """What a player's page shows: a page of their games (the newest charted), their record over the
    season asked for, money over time, their rating and the players they met."""
    player_id = player["id"]
    games = store.player_history(player_id, PAGE_SIZE + 1, before)
    older = games[PAGE_SIZE - 1]["game_id"] if len(games) > PAGE_SIZE else None
    games = games[:PAGE_SIZE]
    catalog = current_catalog()
    charts = {}
    for row in games[:CHARTED_GAMES]:
        game = loading.load_game(store, catalog, row["game_id"]).game
        if game.rounds:
            charts[row["game_id"]] = progression_svg(
                game.competitors, game.running_totals(), Chart(width=520, height=200, legend_width=130)
            )
    season = season_from_request()
    record = records.player_record(store, catalog, player_id, season)
    money = records.money_over_time(record)
    rating = records.rating_of(store, rating_worker(), player_id)
    ruleset = catalog.rulesets.get(season.ruleset)
    rivals = records.rival_ids(record)

    def versus_url(name: str) -> str:
        query: dict[str, Any] = season.query()
        return url_for("players.versus", player_id=player_id, other_id=rivals[name], **query)

    return dict(
        player=player,
        game_lines=page.game_lines(games, catalog.rulesets),
        charts=charts,
        ruleset_lines=page.ruleset_lines(store.player_stats(player_id), catalog.rulesets),
        older=older,
        season=season,
        season_words=season.describe(catalog),
        ruleset=ruleset,
        record=record,
        figures=page.record_figures(record, ruleset, rating, versus_url),
        rival_ids=rivals,
        money_chart=money_svg(money) if len(money) > 1 else None,
        rating=rating,
        other_players=[name for name in store.known_players() if name != player["name"]],
        **filter_choices(),
    )


@bp.post("/players/<int:player_id>/rating")
def rating(player_id: int) -> ResponseReturnValue:
    """Leave a player out of the house's rating, or rate them again (only while the rating is on)."""
    store = get_store()
    try:
        player = store.player(player_id)
    except NotFound:
        abort(404)
    if not current_app.config.get("RATING"):
        abort(404)
    rated = request.form.get("rated") == "1"
    page_write(SetRated(player_id, rated))
    flash(f"{player['name']} is rated again." if rated else f"{player['name']} is left out of the rating.", "ok")
    return redirect(url_for("players.history", player_id=player_id))


@bp.post("/players/<int:player_id>/rename")
def rename(player_id: int) -> ResponseReturnValue:
    typed = request.form.get("name", "")
    return put_right(player_id, lambda: RenamePlayer(player_id, typed), {"rename": typed})


@bp.post("/players/<int:player_id>/merge")
def merge(player_id: int) -> ResponseReturnValue:
    typed = request.form.get("into", "")
    into = get_store().player_id(typed)
    if into is None:
        flash(f"No player called {typed!r} has played here: nothing was changed.", "error")
        return redirect(url_for("players.history", player_id=player_id, into=typed))
    return put_right(player_id, lambda: MergePlayers(player_id, into), {"into": typed}, into)


def put_right(
    player_id: int, command: Callable[[], RenamePlayer | MergePlayers], typed: dict[str, Any], shown: int | None = None
) -> ResponseReturnValue:
    """A rename or merge, after a backup; a refusal is said and the form keeps what was typed."""
    try:
        name = get_store().player(player_id)["name"]
        backed_up("before-change")
        page_write(command())
    except NotFound:
        abort(404)
    except (GameError, BackupFailed) as error:
        flash(f"Nothing was changed: {error}.", "error")
        return redirect(url_for("players.history", player_id=player_id, **typed))
    except LockError:
        flash(
            f"Nothing was changed: some of {name}'s games are under a PIN this phone has not opened. Open each "
            "locked night or game with its PIN first, or do it at the server (`scorekeeper player`).",
            "error",
        )
        return redirect(url_for("players.history", player_id=player_id, **typed))
    flash("Done: a backup was made first.", "ok")
    return redirect(url_for("players.history", player_id=shown or player_id))
