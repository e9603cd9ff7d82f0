"""The game pages: set up a game, record buys and rounds, correct them, see the history."""

from __future__ import annotations

import functools

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from wtforms.validators import ValidationError

from .. import lock, service
from ..catalog import Catalog
from ..exports import download, to_csv_text, to_json_text
from ..forms import choices
from ..rules.game import Game, GameError, HandRecord, describe_round
from ..rules.ledger import format_money
from ..store import StaleWrite, get_store
from .forms import NOBODY, BuyForm, HandForm, LockForm, NewGameForm, RoundForm, UndoForm, UnlockForm

bp = Blueprint("games", __name__)


def catalog() -> Catalog:
    return current_app.extensions["rulesets"]  # type: ignore[no-any-return]


def load(game_id: int) -> Game:
    try:
        return service.load_game(get_store(), catalog(), game_id)
    except service.GameNotFound:
        abort(404)


def stale_message(game: Game) -> str:
    latest = service.describe_events(game)[-1]["text"] if game.events else "a change"
    return (
        f"Not saved: this game changed on another device since you opened the page "
        f"(latest entry: {latest}). Check the scorepad, then enter it again if it is still needed."
    )


@bp.app_template_filter("money")
def money_filter(pennies: int, penny_cents: int = 1) -> str:
    return format_money(pennies, penny_cents)


@bp.get("/")
def index() -> ResponseReturnValue:
    return render_template("index.html", games=get_store().games(), rulesets=catalog().rulesets)


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> ResponseReturnValue:
    store = get_store()
    open_night = store.open_night()
    form = NewGameForm(night=str(open_night) if open_night else "")
    form.ruleset.choices = choices(catalog().choices())
    form.night.choices = choices(
        [("", "No night")]
        + [(str(n["id"]), f"Night {n['id']}" + (f" · {n['name']}" if n["name"] else "")) for n in store.nights()
           if not n["closed_at"]]
    )  # fmt: skip
    if form.validate_on_submit():
        try:
            names = form.names()
            teams = service.seat_teams(names, form.team_count()) if form.team_count() else None
            game_id = service.start_game(
                get_store(),
                catalog().get(form.ruleset.data),
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
        "new_game.html", form=form, problems=catalog().problems, known=get_store().known_players()
    ), status


def locked_out(game_id: int) -> ResponseReturnValue | None:
    """A redirect to the unlock page when this browser may not change the game, else None."""
    if lock.page_unlocked(get_store().game(game_id)):
        return None
    flash("This game is locked: only the scorekeeper can change it. Enter the PIN to unlock it here.", "error")
    return redirect(url_for("games.unlock", game_id=game_id))


@bp.get("/games/<int:game_id>")
def show(game_id: int) -> ResponseReturnValue:
    game = load(game_id)
    row = get_store().game(game_id)
    share_url = share_link(row["share_token"])
    return render_template(
        "game.html",
        game=game,
        night_id=row["night_id"],
        locked=bool(row["pin_hash"]),
        can_write=lock.page_unlocked(row),
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
    load(game_id)
    row = get_store().game(game_id)
    form = UnlockForm()
    if not row["pin_hash"] or lock.page_unlocked(row):
        return redirect(url_for("games.show", game_id=game_id))
    if form.validate_on_submit():
        try:
            lock.verify_pin(get_store(), row, form.pin.data)
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
    game = load(game_id)
    if refused := locked_out(game_id):
        return refused
    form = BuyForm()
    if not form.validate_on_submit():
        flash("Not saved: the buy form was incomplete. Tap the player's Buy button again.", "error")
    else:
        try:
            after = service.record_buy(get_store(), catalog(), game, form.player.data, form.version_number())
        except GameError as error:
            flash(f"Not saved: {error}", "error")
        except StaleWrite:
            flash(stale_message(load(game_id)), "error")
        else:
            name = after.player_named(form.player.data)
            left = after.buys_left(name)
            flash(f"{name} bought the discard" + (f" — {left} buys left" if left is not None else ""), "ok")
    return redirect(url_for("games.show", game_id=game_id))


@bp.route("/games/<int:game_id>/rounds/new", methods=["GET", "POST"], defaults={"number": None})
@bp.route("/games/<int:game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
def round_entry(game_id: int, number: int | None) -> ResponseReturnValue:
    game = load(game_id)
    if refused := locked_out(game_id):
        return refused
    if number is not None and not 1 <= number <= len(game.rounds):
        abort(404)
    if number is None and game.finished:
        flash("The game is finished: all rounds are recorded. Use Edit on a round to correct it.", "error")
        return redirect(url_for("games.show", game_id=game_id))
    if game.ruleset.family == "books":
        return hand_entry(game, number)
    form = RoundForm.for_players(game.players, version=game.version)
    if not form.is_submitted() and number is not None:
        fill_from_round(form, game, number)
    if form.validate_on_submit():
        try:
            service.record_round(
                get_store(),
                catalog(),
                game,
                form.went_out.data,
                form.caught_by_player(game.players),
                number=number,
                version=form.version_number(),
            )
        except GameError as error:
            attach_error(form, game, error)
        except StaleWrite:
            form.form_errors.append(stale_message(load(game_id)))
        else:
            flash(f"Round {number or game.current_round} saved" + (" (corrected)" if number else ""), "ok")
            return redirect(url_for("games.show", game_id=game_id))
    shown = number or game.current_round or 1
    return render_template(
        "round_form.html",
        game=game,
        form=form,
        number=number,
        round=describe_round(game.setup, shown),
    ), (400 if form.is_submitted() else 200)


def hand_entry(game: Game, number: int | None) -> ResponseReturnValue:
    """The end of a hand in a game played by sides: books, threes, melds and what was left."""
    sides = game.setup.sides
    form = HandForm.for_sides(sides, version=game.version)
    if not form.is_submitted() and number is not None:
        fill_from_hand(form, game, number)
    if form.validate_on_submit():
        try:
            service.record_hand(
                get_store(),
                catalog(),
                game,
                form.went_out_name(),
                form.sides_data(sides),
                number=number,
                version=form.version_number(),
            )
        except GameError as error:
            form.form_errors.append(str(error))
        except StaleWrite:
            form.form_errors.append(stale_message(load(game.id)))
        else:
            flash(f"Hand {number or game.current_round} saved" + (" (corrected)" if number else ""), "ok")
            return redirect(url_for("games.show", game_id=game.id))
    shown = number or game.current_round or 1
    return render_template(
        "hand_form.html",
        game=game,
        form=form,
        number=number,
        sides=list(zip(game.competitors, sides, form.sides, strict=False)),
        round=describe_round(game.setup, shown),
        minimums=game.board_minimums(),
    ), (400 if form.is_submitted() else 200)


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


def attach_error(form: RoundForm, game: Game, error: GameError) -> None:
    """Show the engine's message next to the player it is about (and at the top)."""
    form.form_errors.append(str(error))
    if error.player in game.players:
        entry = form.caught[game.players.index(error.player)]
        entry.errors = [*entry.errors, str(error)]  # type: ignore[list-item]


@bp.post("/games/<int:game_id>/undo/<int:event_id>")
def undo(game_id: int, event_id: int) -> ResponseReturnValue:
    game = load(game_id)
    if refused := locked_out(game_id):
        return refused
    form = UndoForm()
    if form.validate_on_submit():
        try:
            service.undo(get_store(), catalog(), game, event_id, form.version_number())
        except GameError as error:
            flash(f"Not undone: {error}", "error")
        except StaleWrite:
            flash(stale_message(load(game_id)), "error")
        else:
            flash(f"Entry {event_id} undone; everything after it is recomputed", "ok")
    return redirect(url_for("games.history", game_id=game_id))


@bp.get("/games/<int:game_id>/history")
def history(game_id: int) -> ResponseReturnValue:
    game = load(game_id)
    return render_template(
        "history.html",
        game=game,
        entries=service.describe_events(game, service.event_times(get_store(), game)),
        undo_form=UndoForm(version=game.version),
    )


@bp.get("/games/<int:game_id>/export.json")
def export_json(game_id: int) -> ResponseReturnValue:
    load(game_id)
    return download(to_json_text(get_store().dump(game_id=game_id)), "application/json", f"game-{game_id}.json")


@bp.get("/games/<int:game_id>/export.csv")
def export_csv(game_id: int) -> ResponseReturnValue:
    return download(to_csv_text([load(game_id)]), "text/csv", f"game-{game_id}.csv")
