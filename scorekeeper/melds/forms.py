"""The meld checker's form."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import SelectField, StringField
from wtforms.validators import InputRequired, Optional

from ..rules.melds import Stage
from ..web.forms import Boxes, WholeNumberField, choices

MELD_LINES = 4


class MeldCheckForm(FlaskForm):
    class Meta:
        csrf = False  # a question, not a write: it changes nothing, so it can be a shareable GET

    ruleset = SelectField("Game")  # a choice from the list (SelectField checks it); no empty first option
    round = WholeNumberField("Round", default=1, validators=[InputRequired(message="which round?")])
    stage = SelectField(
        "Question", choices=choices((stage.value, stage.label) for stage in Stage), default=Stage.FIRST_DOWN.value
    )
    melds = Boxes(StringField("Meld"), min_entries=MELD_LINES, max_entries=MELD_LINES)
    onto = StringField("Meld on the table (for a lay-off)")
    side_score = WholeNumberField("Side's score so far (Pennies From Heaven)", default=0, validators=[Optional()])
