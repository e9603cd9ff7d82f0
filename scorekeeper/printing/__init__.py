"""Printed scorepads and summaries (PDF): a filled sheet for a game, a blank one for pencil play,
and the end-of-night summary."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

from flask import Blueprint, Response, abort, current_app, render_template, request
from flask.typing import ResponseReturnValue

from ..reads import loading
from ..reads.catalog import UnknownRuleset
from ..reads.night_report import NightReport
from ..rules.game import Game
from ..rules.game_json import describe_round
from ..rules.ledger import Payment
from ..rules.rule_card import points_key
from ..rules.rulesets import Ruleset
from ..rules.setup import GameError, check_players, dealer_seat
from ..store import get_store
from ..web import current_catalog
from ..web.forms import whole_number
from ..web.words import written_day
from .chart import progression_svg
from .render import PAPER_SIZES, html_to_pdf

bp = Blueprint("printing", __name__)

PORTRAIT_MAX_COLUMNS = 4
# The filled sheet's geometry, as print.css lays it out: the page less its 12 mm margins, less the
# round, dealer and contract columns (13 + 20 + 48 mm, each with 2.2 mm of padding and a rule).
PAGE_WIDTHS_MM = {"letter": (215.9, 279.4), "A4": (210.0, 297.0)}
MARGINS_MM = 24.0
CELL_EDGES_MM = 2.2 + 0.2
FIXED_COLUMNS_MM = 13 + 20 + 48 + 3 * CELL_EDGES_MM


def cell_room_mm(paper_size: str, columns: int) -> float:
    """The width a player's printed cell has for its small print (half a millimetre kept spare)."""
    portrait, landscape = PAGE_WIDTHS_MM[paper_size]
    page = landscape if columns > PORTRAIT_MAX_COLUMNS else portrait
    return (page - MARGINS_MM - FIXED_COLUMNS_MM) / columns - CELL_EDGES_MM - 0.5


def paper() -> str:
    chosen = request.args.get("paper", current_app.config.get("PAPER_SIZE", "letter")).lower()
    if chosen not in PAPER_SIZES:
        abort(400, f"paper is one of {', '.join(PAPER_SIZES)}")
    return PAPER_SIZES[chosen]


def pdf_response(html: str, filename: str) -> Response:
    pdf = html_to_pdf(html, current_app.static_folder or "static")
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def render_scorepad(game: Game, day: str | None, paper_size: str, notes: str = "") -> str:
    """The filled sheet of ``game``, dated ``day`` (the day it counts on, ISO; None: no date)."""
    rounds = [describe_round(game.setup, n) for n in range(1, game.round_count + 1)]
    return render_template(
        "pdf/scorepad.html",
        title=f"Game {game.id} · {game.ruleset.name}",
        date=written_day(date.fromisoformat(day)) if day else "",
        game=game,
        rounds=rounds,
        chart=progression_svg(game.competitors, game.running_totals()),
        paper=paper_size,
        landscape=len(game.competitors) > PORTRAIT_MAX_COLUMNS,
        cell_room_mm=cell_room_mm(paper_size, len(game.competitors)),
        notes=notes,
    )


@bp.get("/games/<int:game_id>/scorepad.pdf")
def scorepad(game_id: int) -> ResponseReturnValue:
    try:
        loaded = loading.load_game(get_store(), current_catalog(), game_id)
    except loading.GameNotFound:
        abort(404)
    html = render_scorepad(loaded.game, get_store().game_day(game_id), paper(), loaded.row["notes"])
    return pdf_response(html, f"scorepad-game-{game_id}.pdf")


def blank_rounds(ruleset: Ruleset, starter: Callable[[int], str]) -> list[dict[str, object]]:
    """The pre-printed part of each row: who deals (or starts), the contract, the wilds."""
    return [
        {
            "number": rule.number,
            "starter": starter(rule.number),
            "contract": rule.contract.describe() if rule.contract else None,
            "board_minimum": rule.board_minimum,
            "wilds": rule.describe_wilds(),
            "limit": ruleset.describe_wild_rule(rule, short=True) if rule.contract else "",
        }
        for rule in ruleset.rounds
    ]


def render_blank(ruleset: Ruleset, columns: Sequence[str], starter: Callable[[int], str], decks: int) -> str:
    return render_template(
        "pdf/blank.html",
        title=f"{ruleset.name} — scorepad",
        date="Date: ____________",
        ruleset=ruleset,
        columns=columns,
        rounds=blank_rounds(ruleset, starter),
        key=points_key(ruleset),
        decks=decks,
        paper=paper(),
        landscape=len(columns) > PORTRAIT_MAX_COLUMNS,
    )


@bp.get("/games/<int:game_id>/blank.pdf")
def blank_for_game(game_id: int) -> ResponseReturnValue:
    """A blank sheet for this game's table: its seats (one column a side in a game by sides), its
    decks, its deal or start passing round from its first dealer."""
    try:
        game = loading.load_game(get_store(), current_catalog(), game_id).game
    except loading.GameNotFound:
        abort(404)
    setup = game.setup
    starter = setup.first_player if game.ruleset.by_sides else setup.dealer
    html = render_blank(game.ruleset, list(game.competitors), starter, setup.decks)
    return pdf_response(html, f"blank-scorepad-game-{game_id}.pdf")


@bp.get("/scorepad/blank.pdf")
def blank() -> ResponseReturnValue:
    """A sheet for pencil play: names optional (blank name boxes otherwise)."""
    try:
        ruleset = current_catalog().get(request.args.get("ruleset", "ten-pennies"))
    except UnknownRuleset as error:
        abort(400, str(error))
    names = [" ".join(n.split()) for n in request.args.get("players", "").split(",") if n.strip()]
    if names:
        try:
            check_players(ruleset, tuple(names))
        except GameError as error:
            abort(400, str(error))
    seats = request.args.get("seats", "4")
    count = whole_number(seats)
    if not names and not (count is not None and ruleset.players_min <= count <= ruleset.players_max):
        abort(400, f"{ruleset.name} is for {ruleset.players_min} to {ruleset.players_max} players, not {seats!r:.20}")
    columns = names or [""] * (count or 0)

    def starter(number: int) -> str:
        seat = dealer_seat(0, number, len(columns))
        return names[seat] if names else f"seat {seat + 1}"

    html = render_blank(ruleset, columns, starter, ruleset.decks.decks_for(len(columns)))
    return pdf_response(html, f"blank-scorepad-{ruleset.id}.pdf")


def render_summary(title: str, night: NightReport, payments: Sequence[Payment], paper_size: str, when: str = "") -> str:
    """The end-of-night summary: each game's result, each player's money, who pays whom (on paper)."""
    return render_template(
        "pdf/summary.html", title=title, date=when, night=night, payments=payments, paper=paper_size, landscape=False
    )
