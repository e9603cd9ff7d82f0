"""A game deleted from its page (a test game, a game entered twice): asked first, behind its PIN."""

from __future__ import annotations

from flask import flash, redirect, url_for
from flask.typing import ResponseReturnValue

from ..commands.deleting import DeleteGame, game_label
from ..store import get_store
from ..web import backed_up, changes, confirm_delete_page, current_catalog, page_write
from .pages import bp


@bp.get("/games/<int:game_id>/delete")
@changes
def confirm_delete(game_id: int) -> ResponseReturnValue:
    return confirm_delete_page(
        f"game {game_id}",
        game_label(get_store(), current_catalog(), game_id),
        "Its rounds, buys and money go; a later game of its night takes its carry again.",
        url_for("games.delete", game_id=game_id),
        url_for("games.show", game_id=game_id),
    )


@bp.post("/games/<int:game_id>/delete")
@changes
def delete(game_id: int) -> ResponseReturnValue:
    backed_up("before-change")
    page_write(DeleteGame(game_id))
    flash(f"Game {game_id} is deleted. The host can bring it back: `scorekeeper bring-back`.", "ok")
    return redirect(url_for("games.index"))
