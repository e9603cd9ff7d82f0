"""Nights: the games of one evening, the money across them, and who pays whom."""

from __future__ import annotations

import secrets

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ..commands.deleting import DeleteNight
from ..commands.locks import LockError, NeedsUnlock, night_lock
from ..commands.nights import CloseNight, CreateNight, NightChange, Pay, SetMoneyMode, TakeBackPayment
from ..commands.outcomes import AlreadySaved, Locked, MovedOn, Outcome, RecordedSince, Refused, Saved, ToConfirm
from ..printing import paper, pdf_response, render_summary
from ..reads.exports import download, to_csv_text, to_json_text
from ..reads.night_report import BOWL_LABEL, NightReport, night_card, night_report
from ..rules.ledger import MoneyMode, SettlementError, format_cents
from ..rules.setup import GameError
from ..store import NotFound, automatic_backup, exchange, get_store
from ..web import backed_up, changes, confirm_delete_page, current_catalog, decide_access_once, page_entry, page_write
from ..web.access import page_unlocked
from ..web.forms import NotesForm, send_notes
from ..web.sharing import night_link, qr_svg
from ..web.unlocking import unlock_page
from ..web.words import written_day_of
from .forms import CloseNightForm, MoneyForm, NewNightForm, PaidForm, TakeBackForm
from .page import night_page

bp = Blueprint("nights", __name__)
decide_access_once(bp, lambda address: NightChange(address["night_id"]))


def report(night_id: int) -> NightReport:
    try:
        return night_report(get_store(), current_catalog(), night_id)
    except NotFound:
        abort(404)


@bp.route("/nights", methods=["GET", "POST"])
def index() -> ResponseReturnValue:
    form = NewNightForm()
    if form.validate_on_submit():
        night_id = page_write(CreateNight(form.name.data or "", MoneyMode(form.money.data or MoneyMode.TABLE)))
        flash("A new night: games you start now belong to it", "ok")
        return redirect(url_for("nights.show", night_id=night_id))
    return render_template("nights.html", nights=get_store().nights(), form=form), (400 if form.errors else 200)


@bp.get("/nights/<int:night_id>")
def show(night_id: int, notes_form: NotesForm | None = None, status: int = 200) -> ResponseReturnValue:
    night = report(night_id)
    keeper = request.args.get("keeper") or None
    if keeper is not None and keeper not in night.players:
        abort(400, f"{keeper!r} did not play tonight")
    try:
        still, problem = night.still_owed(keeper), None
    except SettlementError as error:
        still, problem = [], str(error)
    locked = night_lock(night.night)
    can_write = page_unlocked(locked)
    night_url = night_link(night.night["share_token"])
    return render_template(
        "night.html",
        night=night,
        page=night_page(night, still, keeper, locked is not None, can_write),
        problem=problem,
        keeper=keeper,
        close_form=CloseNightForm(),
        can_write=can_write,
        night_url=night_url,
        night_qr=qr_svg(night_url),
        money_form=MoneyForm(money=night.money),
        paid_form=PaidForm(),
        page_key=secrets.token_urlsafe(12),
        notes_form=notes_form or NotesForm(notes=night.night["notes"], edits=night.night["notes_edits"]),
        results_card=night_card(night),
    ), status


@bp.get("/nights/<int:night_id>/explain")
def explain(night_id: int) -> ResponseReturnValue:
    """Every player's money line by line: what the nets on the night page are made of."""
    return render_template("night_explain.html", night=report(night_id))


@bp.post("/nights/<int:night_id>/notes")
@changes
def notes(night_id: int) -> ResponseReturnValue:
    """A night's note may change once it is closed too: a note is no money."""
    refused = send_notes("night", night_id)
    if refused is not None:
        return show(night_id, *refused)
    return redirect(url_for("nights.show", night_id=night_id))


@bp.post("/nights/<int:night_id>/money")
@changes
def money(night_id: int) -> ResponseReturnValue:
    """Pennies on the table, or on paper: changeable while the night is open."""
    form = MoneyForm()
    if not form.validate_on_submit():
        flash("Not changed: choose pennies on the table or on paper, then tap Change.", "error")
        return redirect(url_for("nights.show", night_id=night_id))
    mode = MoneyMode(form.money.data)
    try:
        page_write(SetMoneyMode(night_id, mode))
    except GameError as error:
        flash(f"Not changed: {error}.", "error")
    else:
        flash(f"Money tonight: {mode.label}", "ok")
    return redirect(url_for("nights.show", night_id=night_id))


@bp.post("/nights/<int:night_id>/paid")
@changes
def paid(night_id: int) -> ResponseReturnValue:
    """A payment of a night on paper was made: kept as money handed over (a second tap of the same
    button records it once)."""
    form = PaidForm()
    if not form.validate_on_submit():
        flash("Not saved: the payment form was incomplete. Tap Mark paid again.", "error")
        return redirect(url_for("nights.show", night_id=night_id))
    payment = Pay(night_id, form.party(form.payer.data), form.party(form.payee.data), form.amount.data or 0)
    return tap_answered(
        page_entry(lambda: payment, form.entry_key.data),
        f"{payment_words(form)}: kept as paid",
        "That payment was already marked paid (tapped twice): nothing more was recorded.",
    )


def payment_words(form: PaidForm) -> str:
    payer, payee = (form.party(data).name or BOWL_LABEL for data in (form.payer.data, form.payee.data))
    return f"{payer} paid {payee} {format_cents(form.amount.data or 0)}"


def tap_answered(outcome: Outcome[object], saved: str, again: str) -> ResponseReturnValue:
    """The one place a one-tap write of the night page (a payment) is answered, in words on the night's
    page: what was done, that a second tap did nothing more, or why nothing was saved."""
    match outcome:
        case Saved():
            flash(saved, "ok")
        case AlreadySaved():
            flash(again, "ok")
        case Refused(error=error):
            flash(f"Not saved: {error}", "error")
        case Locked(refusal=refusal):
            return needs_unlock(refusal)
        case MovedOn() | RecordedSince() | ToConfirm():  # pragma: no cover - a night's write has no version
            raise AssertionError(outcome)
    return redirect(url_for("nights.show", night_id=(request.view_args or {})["night_id"]))


@bp.post("/nights/<int:night_id>/payments/<int:payment_id>")
@changes
def payment_taken_back(night_id: int, payment_id: int) -> ResponseReturnValue:
    """ "Not paid after all" (or paid after all, to undo that): the only way a payment made changes."""
    form = TakeBackForm()
    if form.validate_on_submit():
        undone = form.undone.data == "1"
        try:
            page_write(TakeBackPayment(night_id, payment_id, undone))
        except GameError as error:
            flash(f"Not saved: {error}", "error")
        else:
            flash("Marked not paid after all" if undone else "Marked paid again", "ok")
    return redirect(url_for("nights.show", night_id=night_id))


@bp.errorhandler(NeedsUnlock)
def needs_unlock(error: LockError) -> ResponseReturnValue:
    flash(str(error), "error")
    return redirect(url_for("nights.unlock", night_id=(request.view_args or {})["night_id"]))


@bp.route("/nights/<int:night_id>/unlock", methods=["GET", "POST"])
def unlock(night_id: int) -> ResponseReturnValue:
    try:
        night = get_store().night(night_id)
    except NotFound:
        abort(404)
    return unlock_page(night_lock(night), url_for("nights.show", night_id=night_id), f"night {night_id}")


@bp.post("/nights/<int:night_id>/close")
@changes
def close(night_id: int) -> ResponseReturnValue:
    if CloseNightForm().validate_on_submit():
        page_write(CloseNight(night_id))
        flash("Night closed: new games start a new night", "ok")
        problem = automatic_backup("night-closed")
        if problem:
            flash(problem, "error")
    return redirect(url_for("nights.show", night_id=night_id))


@bp.get("/nights/<int:night_id>/export.json")
def export_json(night_id: int) -> ResponseReturnValue:
    try:
        data = exchange.dump(get_store(), night_id=night_id)
    except NotFound:
        abort(404)
    return download(to_json_text(data), "application/json", f"night-{night_id}.json")


@bp.get("/nights/<int:night_id>/export.csv")
def export_csv(night_id: int) -> ResponseReturnValue:
    return download(to_csv_text(report(night_id).games), "text/csv", f"night-{night_id}.csv")


@bp.get("/nights/<int:night_id>/summary.pdf")
def summary_pdf(night_id: int) -> ResponseReturnValue:
    night = report(night_id)
    try:
        payments = night.still_owed()
    except SettlementError:
        payments = []
    title = f"Night {night_id}" + (f" · {night.night['name']}" if night.night["name"] else "")
    html = render_summary(title, night, payments, paper(), when=written_day_of(night.night["created_at"]))
    return pdf_response(html, f"night-{night_id}-summary.pdf")


@bp.get("/nights/<int:night_id>/delete")
@changes
def confirm_delete(night_id: int) -> ResponseReturnValue:
    night = get_store().night(night_id)
    games = len(get_store().night_game_ids(night_id))
    return confirm_delete_page(
        f"night {night_id}",
        f"{night['name'] or 'The night'} of {night['created_at'][:10]}: {games} game{'' if games == 1 else 's'}",
        "Its games, their rounds and the night's money and payments go with it.",
        url_for("nights.delete", night_id=night_id),
        url_for("nights.show", night_id=night_id),
    )


@bp.post("/nights/<int:night_id>/delete")
@changes
def delete(night_id: int) -> ResponseReturnValue:
    backed_up("before-change")
    page_write(DeleteNight(night_id))
    flash(f"Night {night_id} is deleted. The host can bring it back: `scorekeeper bring-back`.", "ok")
    return redirect(url_for("nights.index"))
