"""The game pages' forms. Every form is a FlaskForm, so every POST carries a CSRF token."""

from __future__ import annotations

import json
from typing import Any

from flask import request
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    PasswordField,
    RadioField,
    SelectField,
    StringField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from ..commands.pins import MAX_PIN, MIN_PIN, PIN_RULE
from ..reads.drafts import SEEN_GARBLED, seen_drafts
from ..reads.side_input import MAX_COUNT
from ..rules.setup import MAX_NAME_LENGTH, MAX_PENNY_CENTS, GameError, clean_name
from ..web.forms import Boxes, WholeNumberField, choices, whole_number

MAX_PLAYERS = 8


class NewGameForm(FlaskForm):
    ruleset = SelectField("Game")  # a choice from the list (SelectField checks it); no empty first option
    players = Boxes(StringField("Player"), min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)
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
        validators=[Optional(), Length(min=MIN_PIN, max=MAX_PIN, message=PIN_RULE)],
    )
    penny_cents = WholeNumberField(
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


class LockForm(FlaskForm):
    pass


class VersionedForm(FlaskForm):
    """A write based on a version of the game: a stale one is refused, not applied. Its entry key,
    made when the page was drawn, records it once: the same form sent twice adds nothing."""

    version = HiddenField()
    entry_key = HiddenField(validators=[Optional(), Length(max=64)])

    def version_number(self) -> int | None:
        return whole_number(self.version.data)

    def validate_version(self, field: HiddenField) -> None:
        if self.version_number() is None:
            raise ValidationError("the form came without the game's version: reload the page and enter it again")

    def validate(self, extra_validators: Any = None) -> bool:
        """As FlaskForm's, with what is wrong with a hidden field said at the top of the form (it
        has no place of its own on the page)."""
        valid = bool(super().validate(extra_validators))
        for field in self:
            if field.type == "HiddenField" and field.errors and field.name != "csrf_token":
                self.form_errors.extend(f"Not saved: {error}" for error in field.errors)
        return valid

    def refuse(self, error: GameError, players: tuple[str, ...]) -> None:
        """Show why the engine refused what was typed, at the top of the form."""
        self.form_errors.append(str(error))


def one_box_per_seat(boxes: FieldList[Any], seats: int, typed: Any) -> None:
    """One box per seat, each read by its own name: FieldList closes up a gap in what was sent (a box
    left out, like a disabled one) and would shift every later entry a seat."""
    boxes.entries, boxes.last_index = [], -1
    for _ in range(seats):
        box = boxes.append_entry()
        if typed is not None:
            box.process(typed)


class BuyForm(VersionedForm):
    player = HiddenField(validators=[InputRequired()])


class UndoForm(VersionedForm):
    pass


class EntryForm(VersionedForm):
    """The end of a round or hand: which one it was drawn for, and the second tap an unusual entry needs."""

    round_number = HiddenField()
    confirmed = HiddenField()  # "1" once the scorekeeper has seen the question about an unusual entry
    drafts_seen = HiddenField()  # the players' drafts the page showed, as JSON (app.js keeps it)

    def drawn_for(self) -> int | None:
        return whole_number(self.round_number.data)

    def seen_drafts(self) -> dict[str, str]:
        """The drafts the page showed when Save was tapped (none without JavaScript)."""
        return seen_drafts(json.loads(self.drafts_seen.data)) if self.drafts_seen.data else {}

    def validate_drafts_seen(self, field: HiddenField) -> None:
        try:
            self.seen_drafts()
        except ValueError:  # a JSONDecodeError too
            raise ValidationError(SEEN_GARBLED) from None

    def validate_round_number(self, field: HiddenField) -> None:
        if self.drawn_for() is None:
            raise ValidationError("the form came without the round it was drawn for: reload the page")


class RoundForm(EntryForm):
    went_out = RadioField("Who went out?", validators=[InputRequired(message="say who went out")])
    at_once = BooleanField("Went down and went out in the same turn")  # a game with a bonus for it
    # A game with a bonus for it; a name not at the table is refused in the rules' own words.
    cut_exactly = SelectField("Cut the deck exactly", default="", validate_choice=False)
    caught = Boxes(StringField("Cards caught"))

    @classmethod
    def for_players(cls, players: tuple[str, ...], **kwargs: object) -> RoundForm:
        form = cls(**kwargs)
        form.went_out.choices = choices((name, name) for name in players)
        form.cut_exactly.choices = choices([("", "nobody"), *((name, name) for name in players)])
        # A browser leaves out the went-out player's (disabled) box.
        one_box_per_seat(form.caught, len(players), request.form if form.is_submitted() else None)
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
POINTS = [Optional(), NumberRange(min=0, max=MAX_COUNT, message=f"points from 0 to {MAX_COUNT}")]


class SideForm(Form):
    """One side's end of a hand (a sub-form: the CSRF token is the whole form's). Melds, hands and
    piles take the points the table counted or the cards (docs/rules.md: counting a 15-card pile card by
    card is what tables avoid)."""

    red_threes = WholeNumberField("Red 3s", default=0, validators=COUNT)
    natural = WholeNumberField("Natural (red) books", default=0, validators=COUNT)
    mixed = WholeNumberField("Books with wilds (black)", default=0, validators=COUNT)
    sevens = WholeNumberField("Books of sevens", default=0, validators=COUNT)
    wild = WholeNumberField("Wild books", default=0, validators=COUNT)
    melded_points = WholeNumberField("Points of the cards melded", validators=POINTS)
    melded = StringField("…or the cards melded")
    hand_points = Boxes(WholeNumberField("Points left in hand", validators=POINTS))
    hands = Boxes(StringField("…or the cards left in hand"))
    pile_points = Boxes(WholeNumberField("Points in the pile", validators=POINTS))
    piles = Boxes(StringField("…or the pile's cards"))

    def counts(self) -> list[WholeNumberField]:
        return [self.red_threes, self.natural, self.mixed, self.sevens, self.wild]


class HandForm(EntryForm):
    went_out = RadioField("Who went out?", validators=[InputRequired(message="say who went out (or nobody)")])
    sides = Boxes(FormField(SideForm))
    seated: tuple[tuple[str, ...], ...] = ()  # the players of each side, as the form was drawn for them

    @classmethod
    def for_sides(cls, sides: tuple[tuple[str, ...], ...], **kwargs: object) -> HandForm:
        form = cls(**kwargs)
        form.seated = sides
        players = [name for side in sides for name in side]
        form.went_out.choices = choices([(name, name) for name in players] + [(NOBODY, "Nobody")])
        while len(form.sides) < len(sides):
            form.sides.append_entry()
        typed = request.form if form.is_submitted() else None
        for entry, side in zip(form.sides, sides, strict=False):
            for seats in (entry.form.hands, entry.form.piles, entry.form.hand_points, entry.form.pile_points):
                one_box_per_seat(seats, len(side), typed)
        return form

    def went_out_name(self) -> str | None:
        return None if self.went_out.data == NOBODY else self.went_out.data

    def refuse(self, error: GameError, players: tuple[str, ...]) -> None:
        """At the top, and beside the pile it names: its fold is drawn open (issue 60: a refused Save
        for a pile left it closed and unmarked)."""
        super().refuse(error, players)
        if error.box != "pile":
            return
        for entry, side in zip(self.sides, self.seated, strict=False):
            if error.player in side:
                box = entry.form.pile_points[side.index(error.player)]
                box.errors = [*box.errors, str(error)]

    def sides_data(self, sides: tuple[tuple[str, ...], ...]) -> list[dict[str, Any]]:
        """What was typed, side by side, as a RecordHand command takes it: a hand or a pile is its
        points (a whole number) or its cards (text)."""
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
                    "hands": _points_or_cards(side, f.hand_points, f.hands, "hand"),
                    "piles": _points_or_cards(side, f.pile_points, f.piles, "pile"),
                }
            )
        return data


def _points_or_cards(
    side: tuple[str, ...], points: FieldList[WholeNumberField], cards: FieldList[StringField], what: str
) -> dict[str, int | str]:
    given: dict[str, int | str] = {}
    for name, counted, typed in zip(side, points, cards, strict=False):
        text = (typed.data or "").strip()
        if counted.data is not None and text:
            raise GameError(f"{name}'s {what}: give its points or its cards, not both", name)
        given[name] = counted.data if counted.data is not None else text
    return given
