"""The results card of a game as a picture and as text (issue 44): what the table sends to the family
chat at the end of a game, shared by long-press on the picture or by copying the text."""

from __future__ import annotations

from flask import Blueprint, Response, abort
from flask.typing import ResponseReturnValue

from ..reads import loading
from ..reads.night_report import night_card, night_report
from ..rules.share import ResultsCard
from ..store import NotFound, get_store
from ..web import current_catalog
from .card_image import card_png

bp = Blueprint("cards", __name__)


def loaded_card(game_id: int) -> ResultsCard:
    try:
        loaded = loading.load_game(get_store(), current_catalog(), game_id)
    except loading.GameNotFound:
        abort(404)
    return loaded.results_card()


def picture(card: ResultsCard, filename: str) -> Response:
    """The card as a PNG, named for the phone that saves it."""
    answer = Response(card_png(card), mimetype="image/png")
    answer.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return answer


@bp.get("/games/<int:game_id>/card.png")
def game_card_png(game_id: int) -> ResponseReturnValue:
    return picture(loaded_card(game_id), f"game-{game_id}.png")


@bp.get("/games/<int:game_id>/card.txt")
def game_card_text(game_id: int) -> ResponseReturnValue:
    return Response(loaded_card(game_id).text(), mimetype="text/plain")


def night_results(night_id: int) -> ResultsCard:
    try:
        return night_card(night_report(get_store(), current_catalog(), night_id))
    except NotFound:
        abort(404)


@bp.get("/nights/<int:night_id>/card.png")
def night_card_png(night_id: int) -> ResponseReturnValue:
    return picture(night_results(night_id), f"night-{night_id}.png")


@bp.get("/nights/<int:night_id>/card.txt")
def night_card_text(night_id: int) -> ResponseReturnValue:
    return Response(night_results(night_id).text(), mimetype="text/plain")
