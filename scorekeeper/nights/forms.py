"""The nights pages' forms."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, StringField
from wtforms.validators import InputRequired, Length, NumberRange

from ..commands.nights import MAX_NIGHT_NAME, Party
from ..rules.ledger import MoneyMode
from ..web.forms import WholeNumberField, choices

MONEY_CHOICES = choices([(mode.value, mode.choice) for mode in MoneyMode])


class NewNightForm(FlaskForm):
    name = StringField(
        "Name (optional)", validators=[Length(max=MAX_NIGHT_NAME, message=f"at most {MAX_NIGHT_NAME} characters")]
    )
    money = RadioField("How the money moves", choices=MONEY_CHOICES, default=MoneyMode.TABLE.value)


class MoneyForm(FlaskForm):
    money = RadioField("How the money moves", choices=MONEY_CHOICES, validators=[InputRequired()])


class PaidForm(FlaskForm):
    """One payment of a night on paper, made: who paid whom how many cents. The entry key (one per
    button of a drawn page) records it once, however often it is sent."""

    payer = HiddenField(validators=[InputRequired(), Length(max=200)])  # "player:Ann", or "bowl"
    payee = HiddenField(validators=[InputRequired(), Length(max=200)])
    amount = WholeNumberField(validators=[InputRequired(), NumberRange(min=1, max=10**9)])
    entry_key = HiddenField(validators=[InputRequired(), Length(max=80)])

    @staticmethod
    def party(value: str | None) -> Party:
        """A party as the page's button sends it: the bowl is no name, so no player's name is read as it."""
        text = value or ""
        return Party(bowl=True) if text == "bowl" else Party(text.removeprefix("player:"))


class TakeBackForm(FlaskForm):
    """ "Not paid after all" ("1"), or paid after all ("0")."""

    undone = HiddenField(validators=[InputRequired()])


class CloseNightForm(FlaskForm):
    pass
