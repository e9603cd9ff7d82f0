"""The game page, a new game, buys, locks and the rematch; and what the other parts of the games
blueprint share: the game of the request, the page's entry key, the Undo offer."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response
from wtforms.validators import ValidationError

from ..commands.games import GameChange, RecordBuy, Rematch, StartGame
from ..commands.locks import LockError, NeedsUnlock, game_lock
from ..commands.nights import LockAgain
from ..commands.outcomes import AlreadySaved, Locked, MovedOn, Outcome, RecordedSince, Refused, Saved
from ..reads import loading
from ..reads.drafts import correction_requests
from ..reads.history import bought, entry_name
from ..rules.game import Buy, Game
from ..rules.game_json import describe_round
from ..rules.night import passes_over
from ..rules.setup import GameError, seat_teams
from ..rulesets.words import changes_in_words
from ..store import StaleWrite, Store, get_store, last_backup, mirror_state
from ..store.rows import GameRow
from ..store.startup import disk_is_full
from ..web import changes, current_catalog, decide_access_once, page_entry, page_write
from ..web.access import forget_unlocked, page_unlocked, remember_unlocked
from ..web.forms import NotesForm, choices, ruleset_choices, send_notes
from ..web.sharing import game_link, night_link, qr_svg
from ..web.unlocking import unlock_page
from .forms import BuyForm, LockForm, NewGameForm
from .page import game_page

bp = Blueprint("games", __name__)
decide_access_once(bp, lambda address: GameChange(address["game_id"]))


def load(game_id: int) -> loading.LoadedGame:
    """The game of this request, loaded once (404 for an unknown id)."""
    cached: dict[int, loading.LoadedGame] = g.setdefault("loaded_games", {})
    if game_id not in cached:
        try:
            cached[game_id] = loading.load_game(get_store(), current_catalog(), game_id)
        except loading.GameNotFound:
            abort(404)
    return cached[game_id]


def reload(game_id: int) -> loading.LoadedGame:
    """The game as it is now (after a refused stale write: what changed it)."""
    g.setdefault("loaded_games", {}).pop(game_id, None)
    return load(game_id)


def back_to_game() -> Response:
    """Back to the page the form was on: History for an undo sent from there, else the game."""
    game_id = (request.view_args or {}).get("game_id")
    from_history = request.endpoint == "games.undo" and request.form.get("back") != "game"
    return redirect(url_for("games.history" if from_history else "games.show", game_id=game_id))


def new_entry_key() -> str:
    """A key for the forms of one drawn page: each entry it sends is recorded once."""
    return secrets.token_urlsafe(12)


def offer_undo(game: Game, confirm: bool = False) -> None:
    """The next page shows an Undo button for the entry just made (its last event), named in table
    words; ``confirm``: the undo asks first (a whole round)."""
    event = game.events[-1]
    what = entry_name(game, event)
    session["undo_offer"] = {"game_id": game.id, "event_id": event.id, "what": what, "confirm": confirm}


def undo_offer(game: Game) -> dict[str, object] | None:
    """The offer made by the last entry, once, while that entry can still be undone."""
    if "undo_offer" not in session:  # a plain read: the session cookie is sent again only when it changes
        return None
    offer = session.pop("undo_offer")
    if not isinstance(offer, dict) or offer.get("game_id") != game.id:
        return None
    return offer if offer.get("event_id") in game.undoable_entries() else None


@bp.errorhandler(GameError)
def refused(error: GameError) -> Response:
    """A one-tap action the rules refuse (a buy, an undo): say why on the page it came from."""
    flash(f"Not saved: {error}", "error")
    return back_to_game()


@bp.errorhandler(StaleWrite)
def stale(error: StaleWrite) -> Response:
    flash(loading.stale_message(reload((request.view_args or {})["game_id"])), "error")
    return back_to_game()


@bp.errorhandler(NeedsUnlock)
def needs_unlock(error: LockError) -> Response:
    flash(str(error), "error")
    return redirect(url_for("games.unlock", game_id=(request.view_args or {})["game_id"]))


def tap_answered(outcome: Outcome[Game], saved: Callable[[Game], str], again: str) -> Response:
    """The one place a one-tap write of the game (a buy, an undo) is answered, in words on the page it
    came from: what was done, that a second tap did nothing more, or why nothing was saved."""
    match outcome:
        case Saved(result=after):
            flash(saved(after), "ok")
        case AlreadySaved():
            flash(again, "ok")
        case Refused(error=error) | RecordedSince(refusal=error):
            return refused(error)
        case MovedOn(refusal=stale_write):
            return stale(stale_write)
        case Locked(refusal=refusal):
            return needs_unlock(refusal)
    return back_to_game()


@bp.get("/")
def index() -> ResponseReturnValue:
    return render_template(
        "index.html",
        games=get_store().games(),
        rulesets=current_catalog().rulesets,
        last_backup=last_backup(),
        mirror=mirror_state(),
        disk_full=disk_is_full(current_app.config["DATABASE"]),
    )


def carried_from(row: GameRow) -> int | None:
    """The game of the night whose tie left the pennies this game carried in: the latest earlier one
    that played for a bowl (a game that plays for none passes a leftover over)."""
    if not row["carry_in"] or row["night_id"] is None:
        return None
    store, catalog = get_store(), current_catalog()
    for game_id in reversed([other for other in store.night_game_ids(row["night_id"]) if other < row["id"]]):
        try:
            if not passes_over(loading.game_setup(catalog, store.game(game_id), carry=0)):
                return game_id
        except loading.MissingRuleset:
            continue  # a game whose rules are gone carried nothing it can be named for
    return None


def rules_news(game: Game) -> list[str]:
    """Before a game's first round, when it begins under rules changed since their last version: what
    changed, for the scorekeeper to read before dealing (issue 58)."""
    version = game.setup.ruleset_version
    if game.rounds or version is None or version < 2:
        return []
    store = get_store()
    now, before = store.ruleset_version(game.ruleset.id, version), store.ruleset_version(game.ruleset.id, version - 1)
    if now is None or before is None:
        return []
    return changes_in_words(json.loads(before["document"]), json.loads(now["document"]))


def newer_version(game: Game) -> int | None:
    """The version of the game's ruleset newer than the one it kept, if the house rules changed."""
    current = current_catalog().versions.get(game.ruleset.id)
    kept = game.setup.ruleset_version
    return current if current is not None and kept is not None and current > kept else None


def new_game_form(store: Store, open_night: int | None, ready: dict[str, Any]) -> NewGameForm:
    """The new-game form, with the night open now chosen and the rulesets and open nights to choose from."""
    form = NewGameForm(night=str(open_night) if open_night else "", **ready)
    form.ruleset.choices = ruleset_choices(current_catalog())
    form.night.choices = choices(
        [("", "No night")]
        + [
            (str(n["id"]), f"Night {n['id']}" + (f" · {n['name']}" if n["name"] else ""))
            for n in store.nights()
            if not n["closed_at"]
        ]
    )
    return form


def started(store: Store, form: NewGameForm) -> int | None:
    """The game the form starts (its PIN's setter stays unlocked: the scorekeeper), or None with the
    reason on the form."""
    try:
        names = form.names()
        teams = seat_teams(names, form.team_count()) if form.team_count() else None
        game_id = page_write(
            StartGame(
                ruleset_id=form.ruleset.data or "",
                names=names,
                first_dealer=form.dealer_name(),
                penny_cents=form.penny_cents.data or 1,
                teams=teams,
                night_id=form.night_id(),
                pin=form.pin.data or None,
            )
        )
    except (GameError, ValidationError) as error:
        form.form_errors.append(str(error))
        return None
    except LockError:
        form.form_errors.append(
            f"night {form.night_id()} is locked: the scorekeeper set its PIN (maybe on another phone since "
            "this page was opened). Nothing was started: unlock one of its games with that PIN first"
        )
        return None
    new_lock = game_lock(store, store.game(game_id))
    if form.pin.data and new_lock is not None:
        remember_unlocked(new_lock)  # whoever set the PIN is the scorekeeper
    return game_id


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> ResponseReturnValue:
    store = get_store()
    open_night = store.open_night()
    ready = loading.next_game_defaults(store, current_catalog(), open_night) if open_night else {}
    if request.args.get("ruleset") in current_catalog().rulesets:  # "Start a game" from a rule card
        ready["ruleset"] = request.args["ruleset"]
    form = new_game_form(store, open_night, ready)
    if form.validate_on_submit():
        game_id = started(store, form)
        if game_id is not None:
            return redirect(url_for("games.show", game_id=game_id))
    status = 400 if form.is_submitted() else 200
    return render_template(
        "new_game.html",
        form=form,
        problems=current_catalog().problems,
        games=current_catalog().grouped(),
        known=get_store().known_players(),
        ready=bool(ready) and not form.is_submitted(),
    ), status


@bp.get("/games/<int:game_id>")
def show(game_id: int, notes_form: NotesForm | None = None, status: int = 200) -> ResponseReturnValue:
    loaded = load(game_id)
    game = loaded.game
    locked = game_lock(get_store(), loaded.row)
    can_write = page_unlocked(locked)
    return render_template(
        "game.html",
        game=game,
        page=game_page(game, locked, can_write, correction_requests(get_store(), game), carried_from(loaded.row)),
        night_id=loaded.row["night_id"],
        locked=locked,
        can_write=can_write,
        **phone_links(loaded.row),
        round=describe_round(game.setup, game.current_round) if game.current_round else None,
        page_key=new_entry_key(),
        undo_offer=undo_offer(game),
        last_entry=entry_name(game, game.events[-1]) if game.events else None,
        notes=loaded.row["notes"],
        money_moved=loaded.money_moved(),
        newer_rules=newer_version(game),
        rules_news=rules_news(game),
        results_card=loaded.results_card() if game.finished else None,  # shown when the game is over
        notes_form=notes_form or NotesForm(notes=loaded.row["notes"], edits=loaded.row["notes_edits"]),
    ), status


def phone_links(row: GameRow) -> dict[str, str | None]:
    """The links the table's phones open from a game's page, with their QR codes: the game's live
    view, and its night's link when it is one of a night."""
    share_url = game_link(row["share_token"])
    night_token = get_store().night(row["night_id"])["share_token"] if row["night_id"] else None
    night_url = night_link(night_token) if night_token else None
    return {
        "share_url": share_url,
        "share_qr": qr_svg(share_url),
        "night_url": night_url,
        "night_token": night_token,
        "night_qr": qr_svg(night_url) if night_url else None,
    }


@bp.post("/games/<int:game_id>/notes")
@changes
def notes(game_id: int) -> ResponseReturnValue:
    refused = send_notes("game", game_id)
    if refused is not None:
        reload(game_id)  # the page shows the note as it is now
        return show(game_id, *refused)
    return redirect(url_for("games.show", game_id=game_id))


@bp.route("/games/<int:game_id>/unlock", methods=["GET", "POST"])
def unlock(game_id: int) -> ResponseReturnValue:
    target = game_lock(get_store(), load(game_id).row)
    return unlock_page(target, url_for("games.show", game_id=game_id), f"game {game_id}")


@bp.post("/games/<int:game_id>/lock")
@changes
def relock(game_id: int) -> ResponseReturnValue:
    """Lock again, everywhere: every device unlocked before must type the PIN again."""
    target = game_lock(get_store(), load(game_id).row)
    if LockForm().validate_on_submit() and target is not None:
        page_write(LockAgain(target))
        forget_unlocked(target)
        flash(f"Locked again on every device: the PIN is needed again to change this {target.kind}", "ok")
    return redirect(url_for("games.show", game_id=game_id))


@bp.post("/games/<int:game_id>/rematch")
@changes
def rematch(game_id: int) -> ResponseReturnValue:
    """Play the finished game again: the scorekeeper stays unlocked for the new game's lock."""
    if not LockForm().validate_on_submit():
        return back_to_game()
    new_id, new = page_write(Rematch(game_id, newer_rules=request.form.get("newer_rules") == "1"))
    store = get_store()
    new_lock = game_lock(store, store.game(new_id))
    if new_lock is not None:
        remember_unlocked(new_lock)  # this device could change the old game: it keeps the new one
    if new:
        flash(f"Rematch: game {new_id}, the deal moved on one seat", "ok")
    else:
        flash(f"This game's rematch was already started: here is game {new_id}", "ok")
    return redirect(url_for("games.show", game_id=new_id))


@bp.post("/games/<int:game_id>/buys")
@changes
def buy(game_id: int) -> ResponseReturnValue:
    form = BuyForm()
    if not form.validate_on_submit():
        flash("Not saved: the buy form was incomplete. Tap the player's Buy button again.", "error")
        return back_to_game()
    buy = RecordBuy(game_id=game_id, version=form.version_number(), player=form.player.data or "")
    outcome = page_entry(lambda: buy, form.entry_key.data)
    return tap_answered(
        outcome, buy_saved, "That buy was already saved (the button was tapped twice): nothing more was recorded."
    )


def buy_saved(after: Game) -> str:
    """The buy just made, in words, with the offer to undo it."""
    made = after.events[-1]
    assert isinstance(made, Buy)  # the entry this command just made
    offer_undo(after)
    return bought(after, made)
