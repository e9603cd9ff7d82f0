"""The meld checker page: "is that legal in round 5?" answered at once, with the reason."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue

from ..reads.catalog import Catalog
from ..reads.meld_checks import MeldQuestionError, TooBusy, check
from ..rules.melds import Stage, Verdict
from ..rules.rulesets import RoundRule, Ruleset
from ..web import current_catalog
from ..web.forms import choices, ruleset_choices
from .forms import MeldCheckForm

bp = Blueprint("melds", __name__)


def round_rule(ruleset: Ruleset | None, number: int | None) -> RoundRule | None:
    if ruleset is None or number is None or not 1 <= number <= len(ruleset.rounds):
        return None
    return ruleset.round(number)


@bp.get("/melds")
def checker() -> ResponseReturnValue:
    """A GET form (it changes nothing), so a question can be bookmarked or linked from a game."""
    catalog: Catalog = current_catalog()
    form = MeldCheckForm(request.args or None)
    form.ruleset.choices = ruleset_choices(catalog)
    verdict, error, busy = (
        answered(form, catalog) if "stage" in request.args and form.validate() else (None, None, False)
    )
    ruleset = catalog.rulesets.get(form.ruleset.data or "")
    if ruleset is not None and not ruleset.has_contract:  # nothing to search a hand for
        form.stage.choices = choices((stage.value, stage.label) for stage in Stage if stage is not Stage.HAND)
    page = render_template(
        "melds.html",
        form=form,
        verdict=verdict,
        error=error,
        ruleset=ruleset,
        rule=round_rule(ruleset, form.round.data),
        answer=Stage(form.stage.data).answer(verdict.valid) if verdict else None,
    )
    return page, 503 if busy else 400 if error or form.errors else 200


def answered(form: MeldCheckForm, catalog: Catalog) -> tuple[Verdict | None, str | None, bool]:
    """The checker's answer to a question asked in full: its verdict, or the problem in words (and
    whether it was only that the server was too busy to search)."""
    try:
        verdict = check(
            catalog.get(form.ruleset.data),
            form.round.data or 0,
            form.stage.data,
            [entry.data or "" for entry in form.melds],
            onto=form.onto.data or "",
            side_score=form.side_score.data or 0,
        )
    except MeldQuestionError as problem:
        return None, str(problem), isinstance(problem, TooBusy)
    return verdict, None, False
