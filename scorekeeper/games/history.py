"""A game's past: undo (and its confirmation), the history page and the exports."""

from __future__ import annotations

from flask import abort, render_template, request
from flask.typing import ResponseReturnValue

from ..commands.games import Undo
from ..reads import loading
from ..reads.exports import download, entries_csv_text, to_csv_text, to_json_text
from ..reads.history import describe_event, describe_events, entry_name, find_entry
from ..rules.game import Game, Void
from ..store import NotFound, exchange, get_store
from ..web import changes, page_entry
from .forms import UndoForm
from .pages import back_to_game, bp, load, new_entry_key, offer_undo, tap_answered


@bp.post("/games/<int:game_id>/undo/<int:event_id>")
@changes
def undo(game_id: int, event_id: int) -> ResponseReturnValue:
    """Undo an entry (or put back what an undo took back: an undo of the undo)."""
    game = load(game_id).game
    form = UndoForm()
    if form.validate_on_submit():
        undo = Undo(game_id=game_id, version=form.version_number(), event_id=event_id)
        outcome = page_entry(lambda: undo, form.entry_key.data)
        return tap_answered(
            outcome,
            lambda _: undone_words(game, event_id),
            "That was already done (tapped twice): nothing more was recorded.",
        )
    return back_to_game()


def undone_words(game: Game, event_id: int) -> str:
    """What an undo did, said of the game before it."""
    entry = find_entry(game, event_id)
    if isinstance(entry, Void) and event_id in game.undone_entries():  # an undo of an undo
        return f"Put back {entry_name(game, find_entry(game, entry.target))}; everything after it is recomputed"
    return f"Undid {entry_name(game, entry)}; History can put it back"


@bp.get("/games/<int:game_id>/undo/<int:event_id>")
@changes
def confirm_undo(game_id: int, event_id: int) -> ResponseReturnValue:
    """Undoing a whole round asks first: what it was, and that History can put it back."""
    loaded = load(game_id)
    event = next((e for e in loaded.game.events if e.id == event_id), None)
    if event is None:
        abort(404)
    if loaded.game.events[-1].id == event_id:  # "No, keep it" goes back to a page that still offers it
        offer_undo(loaded.game, confirm=True)
    return render_template(
        "confirm_undo.html",
        game=loaded.game,
        event_id=event_id,
        name=entry_name(loaded.game, event),
        what=describe_event(loaded.game, event),
        back=request.args.get("back", "game"),
        undo_form=UndoForm(version=loaded.game.version, entry_key=new_entry_key()),
    )


@bp.get("/games/<int:game_id>/history")
def history(game_id: int) -> ResponseReturnValue:
    loaded = load(game_id)
    game = loaded.game
    return render_template(
        "history.html",
        game=game,
        entries=describe_events(game, loaded.times),
        undo_form=UndoForm(version=game.version),
        page_key=new_entry_key(),
    )


@bp.get("/games/<int:game_id>/export.json")
def export_json(game_id: int) -> ResponseReturnValue:
    """Everything entered, straight from the store (works even when the game's ruleset file is gone)."""
    try:
        data = exchange.dump(get_store(), game_id=game_id)
    except NotFound:
        abort(404)
    return download(to_json_text(data), "application/json", f"game-{game_id}.json")


@bp.get("/games/<int:game_id>/export.csv")
def export_csv(game_id: int) -> ResponseReturnValue:
    try:
        text = to_csv_text([load(game_id).game])
    except loading.MissingRuleset:  # no engine without the ruleset: the entries as they were typed
        text = entries_csv_text(exchange.dump(get_store(), game_id=game_id))
    return download(text, "text/csv", f"game-{game_id}.csv")
