"""The rulesets' pages: the list, each ruleset's rule card (page and one-page PDF), and house rules made
in the app (``/rulesets/new?from=<id>``, ``/rulesets/<id>/edit``): the form is drawn from a ruleset,
checked by the ruleset reader at every step, previewed (round cards, a blank scorepad), and saved as
a new version through the one command layer."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ..commands.locks import LockError
from ..commands.rulesets import HOUSE_SOURCE, HouseRulesetRefused, SaveHouseRuleset
from ..printing import paper, pdf_response
from ..reads.catalog import Catalog, kept_ruleset
from ..rules.rule_card import points_key, rule_card
from ..rules.rulesets import Family, Ruleset, RulesetError, read_ruleset, ruleset_document
from ..rules.setup import dealer_seat
from ..store import get_store
from ..web import current_catalog, page_write
from ..web.forms import whole_number
from .typed import MOST_FORM_ROUNDS, Typed, from_document, from_post, to_document
from .words import LABELS, field_label, input_id

bp = Blueprint("rulesets", __name__)

PREVIEW_SEATS = 4  # the blank scorepad of the preview: a table of four
_REFUSAL = re.compile(rf"{re.escape(HOUSE_SOURCE)}: ([^:]+): (.*)", re.DOTALL)


def found(catalog: Catalog, ruleset_id: str) -> Ruleset:
    ruleset = catalog.rulesets.get(ruleset_id)
    if ruleset is None:
        abort(404, f"there is no ruleset {ruleset_id!r}")
    return ruleset


def shown(catalog: Catalog, ruleset_id: str) -> tuple[Ruleset, int | None]:
    """The ruleset a rule card shows: as it is now, or ``?version=N`` as a game kept it (a game
    begun before the house rules changed links to the rules it is played under)."""
    asked = request.args.get("version")
    if asked is None:
        return found(catalog, ruleset_id), catalog.versions.get(ruleset_id)
    version = whole_number(asked)
    kept = get_store().ruleset_version(ruleset_id, version) if version is not None else None
    if kept is None:
        abort(404, f"there is no version {asked!r:.20} of the ruleset {ruleset_id!r}")
    return kept_ruleset(kept["document"]), kept["version"]


@bp.get("/rulesets")
def index() -> ResponseReturnValue:
    catalog = current_catalog()
    return render_template("rulesets.html", catalog=catalog, rulesets=list(catalog.rulesets.values()))


@bp.get("/rulesets/<ruleset_id>")
def card(ruleset_id: str) -> ResponseReturnValue:
    catalog = current_catalog()
    ruleset, version = shown(catalog, ruleset_id)
    current = catalog.versions.get(ruleset_id)
    return render_template(
        "rule_card.html",
        ruleset=ruleset,
        card=rule_card(ruleset, house=ruleset.id not in catalog.builtin),
        version=version,
        newer=current if current is not None and version is not None and current > version else None,
        house=ruleset_id in catalog.house,
    )


@bp.get("/rulesets/<ruleset_id>/card.pdf")
def card_pdf(ruleset_id: str) -> ResponseReturnValue:
    catalog = current_catalog()
    ruleset, version = shown(catalog, ruleset_id)
    html = render_template(
        "pdf/rule_card.html",
        title=f"{ruleset.name} — rule card",
        ruleset=ruleset,
        card=rule_card(ruleset, house=ruleset.id not in catalog.builtin),
        version=version,
        paper=paper(),
        landscape=False,
    )
    return pdf_response(html, f"rule-card-{ruleset_id}.pdf")


@bp.route("/rulesets/new", methods=["GET", "POST"])
def new() -> ResponseReturnValue:
    catalog = current_catalog()
    source = found(catalog, request.args.get("from", "ten-pennies"))
    if request.method == "GET":
        typed = from_document(ruleset_document(source))
        typed.fields["name"] = f"{source.name}, our way"[:60]
        typed.fields["summary"] = ""  # the card writes one from the rules; the house may add its own words
        return draw(typed, source, None)
    return posted(source, None)


@bp.route("/rulesets/<ruleset_id>/edit", methods=["GET", "POST"])
def edit(ruleset_id: str) -> ResponseReturnValue:
    catalog = current_catalog()
    ruleset = found(catalog, ruleset_id)
    if ruleset_id not in catalog.house:
        flash(f"{ruleset.name} is not made here, so it is not changed here: these are house rules made from it.")
        return redirect(url_for("rulesets.new") + f"?from={ruleset_id}")
    if request.method == "GET":
        return draw(from_document(ruleset_document(ruleset)), ruleset, ruleset_id)
    return posted(ruleset, ruleset_id)


def posted(source: Ruleset, ruleset_id: str | None) -> ResponseReturnValue:
    """A post of the form: a change of its rounds (drawn again, nothing saved), a preview, or a save."""
    typed = from_post(request.form, request.form.getlist, source.family)
    action = request.form.get("action", "preview")
    if changed_rounds(typed, action):
        return draw(typed, source, ruleset_id, focus=action)
    if action != "save":
        return draw(typed, source, ruleset_id)
    seen = whole_number(request.form.get("seen_version", ""))
    try:
        saved_id, version = page_write(SaveHouseRuleset(to_document(typed, ruleset_id or "house"), ruleset_id, seen))
    except (RulesetError, HouseRulesetRefused) as error:
        return draw(typed, source, ruleset_id, refused=str(error)), 400
    except LockError as error:
        where = error.lock.name if error.lock else "a night"
        refused = f"these rules are played in {where}, which is locked: unlock it with its PIN on its page, then save"
        return draw(typed, source, ruleset_id, refused=refused), 403
    flash(f"Saved: {typed.fields.get('name', '')}, version {version}. Games already begun keep their rules.")
    return redirect(url_for("rulesets.card", ruleset_id=saved_id))


def changed_rounds(typed: Typed, action: str) -> bool:
    """Add a round, or move or remove one (``up-3``, ``down-3``, ``remove-3``): True if asked."""
    if action == "add":
        if len(typed.rounds) < MOST_FORM_ROUNDS:
            typed.add_round()
        return True
    verb, _, number = action.partition("-")
    if verb not in ("up", "down", "remove") or not number.isascii() or not number.isdecimal():
        return False
    if verb == "remove":
        typed.remove_round(int(number))
    else:
        typed.move_round(int(number), -1 if verb == "up" else 1)
    return True


def draw(
    typed: Typed, source: Ruleset, ruleset_id: str | None, refused: str | None = None, focus: str | None = None
) -> str:
    """The form as typed, with the reader's refusal on the field it names, and a preview of the rules
    as they stand (the round cards and a blank scorepad) whenever the reader takes them."""
    preview: Ruleset | None = None
    try:
        preview = read_ruleset(to_document(typed, ruleset_id or "house"), HOUSE_SOURCE)
    except RulesetError as error:
        refused = refused or str(error)
    except RecursionError:  # pragma: no cover - a form is flat
        refused = refused or f"{HOUSE_SOURCE}: rounds: too many"
    field, problem = split_refusal(refused)
    return render_template(
        "ruleset_form.html",
        typed=typed,
        source=source,
        ruleset_id=ruleset_id,
        field=field,
        problem=problem,
        refused_label=field_label(field) if field else "",
        preview=preview,
        card=rule_card(preview, house=True) if preview else None,
        blank=blank_preview(preview) if preview else None,
        key=points_key(preview) if preview else [],
        labels=LABELS,
        seen_version=request.form.get("seen_version") or current_catalog().versions.get(ruleset_id or ""),
        focus=focus,
        is_books=typed.family is Family.BOOKS,
        input_id=input_id,
    )


def split_refusal(refused: str | None) -> tuple[str, str]:
    """("buys.cards", "a buy takes at least 1 card …") from the reader's "house rules: buys.cards: …"."""
    if not refused:
        return "", ""
    match = _REFUSAL.fullmatch(refused)
    return (match.group(1), match.group(2)) if match else ("", refused)


def blank_preview(ruleset: Ruleset) -> list[dict[str, Any]]:
    """The rows of a blank scorepad for a table of four: who deals (or starts) and what is needed."""
    return [
        {
            "number": row.number,
            "starter": f"seat {dealer_seat(0, row.number, PREVIEW_SEATS) + 1}",
            "need": row.need,
            "wilds": row.wilds,
        }
        for row in rule_card(ruleset).rounds
    ]
