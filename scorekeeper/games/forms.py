"""The game pages' forms. Every form is a FlaskForm, so every POST carries a CSRF token."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import FieldList, HiddenField, IntegerField, RadioField, SelectField, StringField
from wtforms.validators import InputRequired, NumberRange, Optional, ValidationError

from ..forms import choices
from ..rules.game import MAX_NAME_LENGTH, clean_name

MAX_PLAYERS = 8


class NewGameForm(FlaskForm):
    ruleset = SelectField("Game", validators=[InputRequired()])
    players = FieldList(StringField("Player"), min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)
    first_dealer = SelectField("First dealer", default="")
    penny_cents = IntegerField(
        "One penny is worth (cents)",
        default=1,
        validators=[Optional(), NumberRange(min=1, max=10000, message="a penny is worth 1 to 10000 cents")],
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.first_dealer.choices = choices(
            [("", "Draw at random")] + [(str(seat), f"Player {seat + 1}") for seat in range(MAX_PLAYERS)]
        )

    def names(self) -> list[str]:
        """The names typed, in seat order, blanks between them closed up."""
        return [clean_name(entry.data or "") for entry in self.players if clean_name(entry.data or "")]

    def validate_players(self, field: FieldList) -> None:
        for seat, entry in enumerate(field, start=1):
            if len(clean_name(entry.data or "")) > MAX_NAME_LENGTH:
                raise ValidationError(f"the name of player {seat} is longer than {MAX_NAME_LENGTH} characters")

    def dealer_name(self) -> str | None:
        """The chosen first dealer's name (by the seat their name box is in), or None to draw."""
        if not self.first_dealer.data:
            return None
        seat = int(self.first_dealer.data)
        typed = clean_name(self.players[seat].data or "")
        if not typed:
            raise ValidationError(f"the first dealer is player {seat + 1}, but that name box is empty")
        return typed


class VersionedForm(FlaskForm):
    """A write based on a version of the game: a stale one is refused, not applied."""

    version = HiddenField()

    def version_number(self) -> int | None:
        try:
            return int(self.version.data)
        except (TypeError, ValueError):
            return None


class BuyForm(VersionedForm):
    player = HiddenField(validators=[InputRequired()])


class UndoForm(VersionedForm):
    pass


class RoundForm(VersionedForm):
    went_out = RadioField("Who went out?", validators=[InputRequired(message="say who went out")])
    caught = FieldList(StringField("Cards caught"))

    @classmethod
    def for_players(cls, players: tuple[str, ...], **kwargs: object) -> RoundForm:
        form = cls(**kwargs)
        form.went_out.choices = choices((name, name) for name in players)
        while len(form.caught) < len(players):
            form.caught.append_entry("")
        return form

    def caught_by_player(self, players: tuple[str, ...]) -> dict[str, str]:
        return {
            name: (entry.data or "")
            for name, entry in zip(players, self.caught, strict=False)
            if name != self.went_out.data
        }
