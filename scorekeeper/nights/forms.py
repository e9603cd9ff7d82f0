"""The nights pages' forms."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import Length


class NewNightForm(FlaskForm):
    name = StringField("Name (optional)", validators=[Length(max=80, message="at most 80 characters")])


class CloseNightForm(FlaskForm):
    pass
