"""The PIN page shared by a locked game and a locked night: type the PIN once on this device, then
back where the person came from."""

from __future__ import annotations

from flask import flash, redirect, render_template
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from wtforms import PasswordField
from wtforms.validators import InputRequired

from ..commands.locks import Lock, LockError, verify_pin
from ..store import get_store
from .access import page_unlocked, remember_unlocked


class UnlockForm(FlaskForm):
    pin = PasswordField("PIN", validators=[InputRequired(message="type the game's PIN")])


def unlock_page(target: Lock | None, back: str, what: str) -> ResponseReturnValue:
    """Type the PIN of a game's or a night's lock; the page then goes back where it came from."""
    form = UnlockForm()
    if target is None or page_unlocked(target):
        return redirect(back)
    if form.validate_on_submit():
        try:
            verify_pin(get_store(), target, form.pin.data or "")
        except LockError as error:
            form.pin.errors = [str(error)]
        else:
            remember_unlocked(target)
            flash(
                f"Unlocked on this device: you can change {what}"
                + (" and its night" if target.kind == "night" else ""),
                "ok",
            )
            return redirect(back)
    page = render_template("unlock.html", form=form, what=what, lock=target, back=back)
    return page, (400 if form.errors else 200)
