"""Shared form machinery: the CSRF extension every FlaskForm relies on, choice lists, and the notes
form of games and nights."""

from collections.abc import Iterable, Mapping
from typing import Any

from flask import flash
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFProtect
from wtforms import FieldList, IntegerField, SelectChoice, TextAreaField  # type: ignore[attr-defined]  # SelectChoice: new in WTForms 3.3; types-WTForms lags
from wtforms.validators import InputRequired, NumberRange, ValidationError
from wtforms.widgets import HiddenInput

from ..commands.nights import KeepNote
from ..reads.catalog import Catalog
from ..reads.notes import NoteError, clean_note
from ..store import get_store
from . import page_write

csrf = CSRFProtect()

MAX_DIGITS = 18  # every number the app takes fits SQLite's integers with room to spare


def whole_number(text: str | None) -> int | None:
    """A number typed or sent as ASCII digits (an optional minus first), or None: int() alone would
    also read '٣' (Arabic-Indic three) and fail on '²', which str.isdigit() lets through."""
    if not text:
        return None
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdecimal() and len(digits) <= MAX_DIGITS):
        return None
    return int(text)


class WholeNumberField(IntegerField):
    """An IntegerField that reads ASCII digits only (see ``whole_number``)."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist or valuelist[0] in ("", None):
            return
        self.data = whole_number(str(valuelist[0]).strip())
        if self.data is None:
            raise ValueError(self.gettext("Not a valid integer value."))


class Boxes(FieldList):  # type: ignore[type-arg, unused-ignore]  # (unused where the tests are checked without --strict)
    """A FieldList whose boxes are numbered in ASCII digits only: WTForms reads any name whose index
    ``str.isdigit()`` passes and then calls ``int()`` on it, which fails on "caught-²" (a 500)."""

    @staticmethod
    def _extract_indices(prefix: str, formdata: Any) -> Iterable[int]:
        offset = len(prefix) + 1
        for name in formdata:
            if name.startswith(prefix):
                index = name[offset:].split("-", 1)[0]
                if index.isascii() and index.isdecimal():
                    yield int(index)


def choices(pairs: Iterable[tuple[str, str]]) -> list[SelectChoice]:
    """(value, label) pairs as the choices of a select or radio field."""
    return [SelectChoice(value, label) for value, label in pairs]


def grouped_choices(groups: Mapping[str, Iterable[tuple[str, str]]]) -> list[SelectChoice]:
    """(value, label) pairs under their group's name: a select draws each group as an <optgroup>."""
    return [SelectChoice(value, label, optgroup=group) for group, pairs in groups.items() for value, label in pairs]


def ruleset_choices(catalog: Catalog) -> list[SelectChoice]:
    """The games to choose from, grouped as a new-game list shows them."""
    return grouped_choices({group: [(r.id, r.name) for r in rulesets] for group, rulesets in catalog.grouped().items()})


class NotesForm(FlaskForm):
    """The note on a game or a night; ``edits`` is how many edits the note had when the page was
    drawn, so an edit made meanwhile on another device is not overwritten unseen."""

    notes = TextAreaField("Notes")
    edits = WholeNumberField(widget=HiddenInput(), validators=[InputRequired(), NumberRange(min=0, max=2**62)])

    def validate_notes(self, field: TextAreaField) -> None:
        try:
            field.data = clean_note(field.data or "")
        except NoteError as error:
            raise ValidationError(str(error)) from None


def send_notes(kind: str, row_id: int) -> tuple[NotesForm, int] | None:
    """Keep the note a game's or a night's page sent: None once saved; else the form to draw again
    (what was typed kept) and its status: 400 for a note that cannot be kept, 409 when the note
    was edited meanwhile elsewhere (the page then shows it as it is now)."""
    form = NotesForm()
    store = get_store()
    if not form.validate_on_submit():
        answer = form, 400
    elif page_write(KeepNote(kind, row_id, form.notes.data or "", form.edits.data or 0)):
        flash("Note saved" if form.notes.data else "Note removed", "ok")
        return None
    else:
        current = store.game(row_id) if kind == "game" else store.night(row_id)
        answer = notes_kept(form, current["notes_edits"]), 409
    flash("Note not saved: see the note below", "error")
    return answer


def notes_kept(form: NotesForm, edits_now: int) -> NotesForm:
    """The notes form again after the note was edited elsewhere meanwhile: what was typed is kept,
    the page shows the note as it is now, and saving again replaces it knowingly."""
    again = NotesForm(formdata=None, notes=form.notes.data, edits=edits_now)
    again.notes.errors = [
        "the note was changed on another device since this page was opened: it now reads as shown. "
        "Your text is kept here; Save again to replace it."
    ]
    return again
