"""The game pages' forms. Every form is a FlaskForm, so every POST carries a CSRF token."""

from __future__ import annotations

from typing import Any

from flask import request
from flask_wtf import FlaskForm
from wtforms import (
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    PasswordField,
    RadioField,
    SelectField,
    StringField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from ..forms import choices
from ..rules.game import MAX_NAME_LENGTH, MAX_PENNY_CENTS, GameError, clean_name

MAX_PLAYERS = 8


class NewGameForm(FlaskForm):
    ruleset = SelectField("Game", validators=[InputRequired()])
    players = FieldList(StringField("Player"), min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)
    first_dealer = SelectField("First dealer", default="")
    teams = SelectField(
        "Sides (Pennies From Heaven)",
        default="0",
        choices=choices(
            [("0", "Each player alone"), ("2", "2 teams, partners across"), ("3", "3 teams"), ("4", "4 teams")]
        ),
    )
    night = SelectField("Night", default="")
    pin = PasswordField(
        "Scorekeeper's PIN (optional: without it nobody else can change this game; in a night, the whole night)",
        validators=[Optional(), Length(min=4, max=64, message="a PIN has 4 to 64 characters")],
    )
    penny_cents = IntegerField(
        "One penny is worth (cents)",
        default=1,
        validators=[
            Optional(),
            NumberRange(min=1, max=MAX_PENNY_CENTS, message=f"a penny is worth 1 to {MAX_PENNY_CENTS} cents"),
        ],
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.first_dealer.choices = choices(
            [("", "Draw at random")] + [(str(seat), f"Player {seat + 1}") for seat in range(MAX_PLAYERS)]
        )

    def names(self) -> list[str]:
        """The names typed, in seat order, blanks between them closed up."""
        return [clean_name(entry.data or "") for entry in self.players if clean_name(entry.data or "")]

    def validate_players(self, field: FieldList[StringField]) -> None:
        for seat, entry in enumerate(field, start=1):
            if len(clean_name(entry.data or "")) > MAX_NAME_LENGTH:
                raise ValidationError(f"the name of player {seat} is longer than {MAX_NAME_LENGTH} characters")

    def night_id(self) -> int | None:
        return int(self.night.data) if self.night.data else None

    def team_count(self) -> int:
        return int(self.teams.data or 0)

    def dealer_name(self) -> str | None:
        """The chosen first dealer's name (by the seat their name box is in), or None to draw."""
        if not self.first_dealer.data:
            return None
        seat = int(self.first_dealer.data)
        typed = clean_name(self.players[seat].data or "")
        if not typed:
            raise ValidationError(f"the first dealer is player {seat + 1}, but that name box is empty")
        return typed


class UnlockForm(FlaskForm):
    pin = PasswordField("PIN", validators=[InputRequired(message="type the game's PIN")])


class LockForm(FlaskForm):
    pass


class VersionedForm(FlaskForm):
    """A write based on a version of the game: a stale one is refused, not applied. Its entry key,
    made when the page was drawn, records it once: the same form sent twice adds nothing."""

    version = HiddenField()
    entry_key = HiddenField(validators=[Optional(), Length(max=64)])

    def version_number(self) -> int | None:
        try:
            return int(self.version.data or "")
        except ValueError:
            return None

    def refuse(self, error: GameError, players: tuple[str, ...]) -> None:
        """Show why the engine refused what was typed, at the top of the form."""
        self.form_errors.append(str(error))


class BuyForm(VersionedForm):
    player = HiddenField(validators=[InputRequired()])


class UndoForm(VersionedForm):
    pass


class EntryForm(VersionedForm):
    """The end of a round or hand: which one it was drawn for, and the second tap an unusual entry needs."""

    round_number = HiddenField()
    confirmed = HiddenField()  # "1" once the scorekeeper has seen the question about an unusual entry

    def drawn_for(self) -> int | None:
        try:
            return int(self.round_number.data or "")
        except ValueError:
            return None


class RoundForm(EntryForm):
    went_out = RadioField("Who went out?", validators=[InputRequired(message="say who went out")])
    caught = FieldList(StringField("Cards caught"))

    @classmethod
    def for_players(cls, players: tuple[str, ...], **kwargs: object) -> RoundForm:
        form = cls(**kwargs)
        form.went_out.choices = choices((name, name) for name in players)
        # One box per seat, read by its own name: a browser leaves out the went-out player's
        # (disabled) box, and FieldList would close up the gap and shift later hands a seat.
        typed = request.form if form.is_submitted() else {}
        form.caught.entries, form.caught.last_index = [], -1
        for seat in range(len(players)):
            form.caught.append_entry(typed.get(f"caught-{seat}", ""))
        return form

    def refuse(self, error: GameError, players: tuple[str, ...]) -> None:
        """At the top, and next to the player whose hand is at fault."""
        super().refuse(error, players)
        if error.player in players:
            entry = self.caught[players.index(error.player)]
            entry.errors = [*entry.errors, str(error)]

    def caught_by_player(self, players: tuple[str, ...]) -> dict[str, str]:
        return {
            name: (entry.data or "")
            for name, entry in zip(players, self.caught, strict=False)
            if name != self.went_out.data
        }


NOBODY = "nobody"
COUNT = [Optional(), NumberRange(min=0, max=99, message="a count from 0 to 99")]


class SideForm(Form):
    """One side's end of a hand (a sub-form: the CSRF token is the whole form's)."""

    red_threes = IntegerField("Red 3s", default=0, validators=COUNT)
    natural = IntegerField("Natural (red) books", default=0, validators=COUNT)
    mixed = IntegerField("Books with wilds (black)", default=0, validators=COUNT)
    sevens = IntegerField("Books of sevens", default=0, validators=COUNT)
    wild = IntegerField("Wild books", default=0, validators=COUNT)
    melded = StringField("Cards melded")
    melded_points = IntegerField(
        "…or their points", validators=[Optional(), NumberRange(min=0, message="points cannot be negative")]
    )
    hands = FieldList(StringField("Cards left in hand"))
    piles = FieldList(StringField("Pile (only if caught off the board)"))


class HandForm(EntryForm):
    went_out = RadioField("Who went out?", validators=[InputRequired(message="say who went out (or nobody)")])
    sides = FieldList(FormField(SideForm))

    @classmethod
    def for_sides(cls, sides: tuple[tuple[str, ...], ...], **kwargs: object) -> HandForm:
        form = cls(**kwargs)
        players = [name for side in sides for name in side]
        form.went_out.choices = choices([(name, name) for name in players] + [(NOBODY, "Nobody")])
        while len(form.sides) < len(sides):
            form.sides.append_entry()
        for entry, side in zip(form.sides, sides, strict=False):
            while len(entry.form.hands) < len(side):
                entry.form.hands.append_entry("")
            while len(entry.form.piles) < len(side):
                entry.form.piles.append_entry("")
        return form

    def went_out_name(self) -> str | None:
        return None if self.went_out.data == NOBODY else self.went_out.data

    def sides_data(self, sides: tuple[tuple[str, ...], ...]) -> list[dict[str, Any]]:
        """What was typed, side by side, as table.record_hand takes it."""
        data = []
        for entry, side in zip(self.sides, sides, strict=False):
            f = entry.form
            data.append(
                {
                    "players": list(side),
                    "red_threes": f.red_threes.data,
                    "books": {kind: getattr(f, kind).data for kind in ("natural", "mixed", "sevens", "wild")},
                    "melded": f.melded.data or None,
                    "melded_points": f.melded_points.data,
                    "hands": {name: (h.data or "") for name, h in zip(side, f.hands, strict=False)},
                    "piles": {name: (p.data or "") for name, p in zip(side, f.piles, strict=False)},
                }
            )
        return data
