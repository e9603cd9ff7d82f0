"""The meld checker's form."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import FieldList, SelectField, StringField
from wtforms.validators import InputRequired, Optional

from ..forms import WholeNumberField, choices
from ..meld_checks import STAGE_LABELS

MELD_LINES = 4


class MeldCheckForm(FlaskForm):
    class Meta:
        csrf = False  # a question, not a write: it changes nothing, so it can be a shareable GET

    ruleset = SelectField("Game", validators=[InputRequired()])
    round = WholeNumberField("Round", default=1, validators=[InputRequired(message="which round?")])
    stage = SelectField("Question", choices=choices(STAGE_LABELS.items()), default="first-down")
    melds = FieldList(StringField("Meld"), min_entries=MELD_LINES, max_entries=MELD_LINES)
    onto = StringField("Meld on the table (for a lay-off)")
    side_score = WholeNumberField("Side's score so far (Pennies From Heaven)", default=0, validators=[Optional()])
