"""The game pages: set up a game, record buys and rounds, correct them, see the history."""

from __future__ import annotations

import functools
from collections.abc import Callable

from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response
from wtforms.validators import ValidationError

from .. import lock, table
from ..exports import download, to_csv_text, to_json_text
from ..forms import choices
from ..history import describe_events
from ..rules.game import Game, GameError, HandRecord, describe_round, seat_teams
from ..rules.ledger import format_money
from ..store import StaleWrite, get_store
from ..web import current_catalog
from .forms import NOBODY, BuyForm, HandForm, LockForm, NewGameForm, RoundForm, UndoForm, UnlockForm, VersionedForm

bp = Blueprint("games", __name__)


def load(game_id: int) -> table.LoadedGame:
    """The game of this request, loaded once (404 for an unknown id)."""
    cached: dict[int, table.LoadedGame] = g.setdefault("loaded_games", {})
    if game_id not in cached:
        try:
            cached[game_id] = table.load_game(get_store(), current_catalog(), game_id)
        except table.GameNotFound:
            abort(404)
    return cached[game_id]


def reload(game_id: int) -> table.LoadedGame:
    """The game as it is now (after a refused stale write: what changed it)."""
    g.setdefault("loaded_games", {}).pop(game_id, None)
    return load(game_id)


def writable(game_id: int) -> table.LoadedGame:
    """The game, once this browser may change it (a locked game needs its PIN on this device)."""
    loaded = load(game_id)
    if not lock.page_unlocked(loaded.row):
        raise lock.NeedsUnlock(
            "This game is locked: only the scorekeeper can change it. Enter the PIN to unlock it here."
        )
    return loaded


def back_to_game() -> Response:
    game_id = (request.view_args or {}).get("game_id")
    target = "games.history" if request.endpoint == "games.undo" else "games.show"
    return redirect(url_for(target, game_id=game_id))


@bp.errorhandler(GameError)
def refused(error: GameError) -> ResponseReturnValue:
    """A one-tap action the rules refuse (a buy, an undo): say why on the page it came from."""
    flash(f"Not saved: {error}", "error")
    return back_to_game()


@bp.errorhandler(StaleWrite)
def stale(error: StaleWrite) -> ResponseReturnValue:
    flash(table.stale_message(reload((request.view_args or {})["game_id"])), "error")
    return back_to_game()


@bp.errorhandler(lock.NeedsUnlock)
def needs_unlock(error: lock.NeedsUnlock) -> ResponseReturnValue:
    flash(str(error), "error")
    return redirect(url_for("games.unlock", game_id=(request.view_args or {})["game_id"]))


@bp.app_template_filter("money")
def money_filter(pennies: int, penny_cents: int = 1) -> str:
    return format_money(pennies, penny_cents)


@bp.get("/")
def index() -> ResponseReturnValue:
    return render_template("index.html", games=get_store().games(), rulesets=current_catalog().rulesets)


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> ResponseReturnValue:
    store = get_store()
    open_night = store.open_night()
    form = NewGameForm(night=str(open_night) if open_night else "")
    form.ruleset.choices = choices(current_catalog().choices())
    form.night.choices = choices(
        [("", "No night")]
        + [(str(n["id"]), f"Night {n['id']}" + (f" · {n['name']}" if n["name"] else "")) for n in store.nights()
           if not n["closed_at"]]
    )  # fmt: skip
    if form.validate_on_submit():
        try:
            names = form.names()
            teams = seat_teams(names, form.team_count()) if form.team_count() else None
            game_id = table.start_game(
                get_store(),
                current_catalog(),
                form.ruleset.data or "",
                names,
                form.dealer_name(),
                form.penny_cents.data or 1,
                teams=teams,
                night_id=form.night_id(),
                pin=form.pin.data or None,
            )
        except (GameError, ValidationError) as error:
            form.form_errors.append(str(error))
        else:
            if form.pin.data:
                lock.remember_unlocked(game_id)  # whoever set the PIN is the scorekeeper
            return redirect(url_for("games.show", game_id=game_id))
    status = 400 if form.is_submitted() else 200
    return render_template(
        "new_game.html", form=form, problems=current_catalog().problems, known=get_store().known_players()
    ), status


@bp.get("/games/<int:game_id>")
def show(game_id: int) -> ResponseReturnValue:
    loaded = load(game_id)
    game = loaded.game
    share_url = share_link(loaded.row["share_token"])
    return render_template(
        "game.html",
        game=game,
        night_id=loaded.row["night_id"],
        locked=loaded.locked,
        can_write=lock.page_unlocked(loaded.row),
        share_url=share_url,
        share_qr=qr_svg(share_url),
        lock_form=LockForm(),
        round=describe_round(game.setup, game.current_round) if game.current_round else None,
        buy_form=BuyForm(version=game.version),
        undo_form=UndoForm(version=game.version),
    )


def share_link(token: str) -> str:
    """The live view's address; PUBLIC_URL (set by ``serve --network``) is what phones can reach."""
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + url_for("live.view", token=token)


@functools.lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """The share link's QR code (the same link always draws the same code, so keep it)."""
    import segno

    return segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff")


@bp.route("/games/<int:game_id>/unlock", methods=["GET", "POST"])
def unlock(game_id: int) -> ResponseReturnValue:
    row = load(game_id).row
    form = UnlockForm()
    if not row["pin_hash"] or lock.page_unlocked(row):
        return redirect(url_for("games.show", game_id=game_id))
    if form.validate_on_submit():
        try:
            lock.verify_pin(get_store(), row, form.pin.data or "")
        except lock.LockError as error:
            form.pin.errors = [str(error)]
        else:
            lock.remember_unlocked(game_id)
            flash("Unlocked on this device: you can change the game", "ok")
            return redirect(url_for("games.show", game_id=game_id))
    return render_template("unlock.html", form=form, game_id=game_id), (400 if form.errors else 200)


@bp.post("/games/<int:game_id>/lock")
def relock(game_id: int) -> ResponseReturnValue:
    if LockForm().validate_on_submit():
        lock.forget_unlocked(game_id)
        flash("Locked again on this device", "ok")
    return redirect(url_for("games.show", game_id=game_id))


@bp.post("/games/<int:game_id>/buys")
def buy(game_id: int) -> ResponseReturnValue:
    game = writable(game_id).game
    form = BuyForm()
    if not form.validate_on_submit():
        flash("Not saved: the buy form was incomplete. Tap the player's Buy button again.", "error")
        return back_to_game()
    after = table.record_buy(get_store(), current_catalog(), game, form.player.data or "", form.version_number())
    name = after.player_named(form.player.data or "")
    left = after.buys_left(name)
    flash(f"{name} bought the discard" + (f" — {left} buys left" if left is not None else ""), "ok")
    return back_to_game()


@bp.route("/games/<int:game_id>/rounds/new", methods=["GET", "POST"], defaults={"number": None})
@bp.route("/games/<int:game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
def round_entry(game_id: int, number: int | None) -> ResponseReturnValue:
    """The end of a round (or of a hand, in a game played by sides), new or corrected."""
    game = writable(game_id).game
    if number is not None and not 1 <= number <= len(game.rounds):
        abort(404)
    if number is None and game.finished:
        flash(f"The game is finished: all {game.ruleset.round_word}s are recorded. Use Edit to correct one.", "error")
        return redirect(url_for("games.show", game_id=game_id))
    store, rulesets = get_store(), current_catalog()
    if game.ruleset.by_sides:
        sides = game.setup.sides
        hand_form = HandForm.for_sides(sides, version=game.version)
        if not hand_form.is_submitted() and number is not None:
            fill_from_hand(hand_form, game, number)

        def save_hand() -> Game:
            return table.record_hand(
                store, rulesets, game, hand_form.went_out_name(), hand_form.sides_data(sides), number,
                hand_form.version_number(),
            )  # fmt: skip

        return entry_page(
            game, number, hand_form, save_hand, "hand_form.html",
            sides=list(zip(game.competitors, sides, hand_form.sides, strict=False)), minimums=game.board_minimums(),
        )  # fmt: skip
    form = RoundForm.for_players(game.players, version=game.version)
    if not form.is_submitted() and number is not None:
        fill_from_round(form, game, number)

    def save_round() -> Game:
        caught = form.caught_by_player(game.players)
        return table.record_round(
            store, rulesets, game, form.went_out.data or "", caught, number, form.version_number()
        )

    return entry_page(game, number, form, save_round, "round_form.html")


def entry_page(
    game: Game, number: int | None, form: VersionedForm, save: Callable[[], Game], template: str, **context: object
) -> ResponseReturnValue:
    """One flow for every entry form: save what validates, or show the form again with what was
    typed and the reason it was refused."""
    if form.validate_on_submit():
        try:
            save()
        except GameError as error:
            form.refuse(error, game.players)
        except StaleWrite:
            form.form_errors.append(table.stale_message(reload(game.id)))
        else:
            word = game.ruleset.round_word.capitalize()
            flash(f"{word} {number or game.current_round} saved" + (" (corrected)" if number else ""), "ok")
            return redirect(url_for("games.show", game_id=game.id))
    shown = number or game.current_round or 1
    page = render_template(
        template, game=game, form=form, number=number, round=describe_round(game.setup, shown), **context
    )
    return page, (400 if form.is_submitted() else 200)


def fill_from_hand(form: HandForm, game: Game, number: int) -> None:
    """Load a recorded hand into the form, to correct it."""
    record = game.record(number)
    assert isinstance(record, HandRecord)
    form.went_out.data = record.went_out or NOBODY
    for entry, side in zip(form.sides, record.sides, strict=False):
        f = entry.form
        f.red_threes.data = side.red_threes
        for kind, count in side.books.items():
            getattr(f, kind).data = count
        f.melded.data = " ".join(map(str, side.melded)) if side.melded is not None else ""
        f.melded_points.data = side.melded_points
        for name, hand, pile in zip(side.players, f.hands, f.piles, strict=False):
            hand.data = " ".join(map(str, side.hands.get(name, ())))
            pile.data = " ".join(map(str, side.piles.get(name, ())))


def fill_from_round(form: RoundForm, game: Game, number: int) -> None:
    result = game.rounds[number - 1]
    form.went_out.data = result.went_out
    for name, entry in zip(game.players, form.caught, strict=True):
        entry.data = " ".join(str(card) for card in result.results[name].cards)


@bp.post("/games/<int:game_id>/undo/<int:event_id>")
def undo(game_id: int, event_id: int) -> ResponseReturnValue:
    game = writable(game_id).game
    form = UndoForm()
    if form.validate_on_submit():
        table.undo(get_store(), current_catalog(), game, event_id, form.version_number())
        flash(f"Entry {event_id} undone; everything after it is recomputed", "ok")
    return back_to_game()


@bp.get("/games/<int:game_id>/history")
def history(game_id: int) -> ResponseReturnValue:
    loaded = load(game_id)
    game = loaded.game
    return render_template(
        "history.html", game=game, entries=describe_events(game, loaded.times), undo_form=UndoForm(version=game.version)
    )


@bp.get("/games/<int:game_id>/export.json")
def export_json(game_id: int) -> ResponseReturnValue:
    load(game_id)
    return download(to_json_text(get_store().dump(game_id=game_id)), "application/json", f"game-{game_id}.json")


@bp.get("/games/<int:game_id>/export.csv")
def export_csv(game_id: int) -> ResponseReturnValue:
    return download(to_csv_text([load(game_id).game]), "text/csv", f"game-{game_id}.csv")
