"""The round and hand forms: a round or a hand entered or corrected, with drafts, questions and refusals."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue

from ..commands.games import RecordHand, RecordRound
from ..commands.outcomes import AlreadySaved, Locked, MovedOn, Outcome, RecordedSince, Refused, Saved, ToConfirm
from ..commands.runner import Command
from ..reads import loading
from ..rules.game import Game, HandRecord
from ..rules.game_json import describe_round
from ..rules.scoring import PlayerResult
from ..web import changes, page_entry
from .forms import NOBODY, EntryForm, HandForm, RoundForm
from .pages import bp, load, needs_unlock, new_entry_key, offer_undo, reload


@bp.route("/games/<int:game_id>/rounds/new", methods=["GET", "POST"], defaults={"number": None})
@bp.route("/games/<int:game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
@changes
def round_entry(game_id: int, number: int | None) -> ResponseReturnValue:
    """The end of a round (or of a hand, in a game played by sides), new or corrected."""
    game = load(game_id).game
    if number is not None and not 1 <= number <= len(game.rounds):
        abort(404)
    if number is None and game.finished:
        flash(f"The game is finished: all {game.ruleset.round_word}s are recorded. Use Edit to correct one.", "error")
        return redirect(url_for("games.show", game_id=game_id))
    return (hand_entry if game.ruleset.by_sides else round_form_entry)(game, number)


def hand_entry(game: Game, number: int | None) -> ResponseReturnValue:
    """A hand of a game played by sides: each side's piles, typed side by side."""
    sides = game.setup.sides
    form = HandForm.for_sides(sides, **entry_form_data(game, number))
    if not form.is_submitted() and number is not None:
        fill_from_hand(form, game, number)

    def hand() -> RecordHand:
        return RecordHand(
            game_id=game.id,
            version=form.version_number(),
            went_out=form.went_out_name(),
            sides=form.sides_data(sides),
            number=number,
            drawn_for=form.drawn_for(),
            drafts_seen=form.seen_drafts(),
        )

    sides_shown = list(zip(game.competitors, sides, form.sides, strict=False))
    return entry_page(game, number, form, hand, "hand_form.html", sides=sides_shown, minimums=game.board_minimums())


def round_form_entry(game: Game, number: int | None) -> ResponseReturnValue:
    """A round: who went out, and each player's cards caught in hand."""
    form = RoundForm.for_players(game.players, **entry_form_data(game, number))
    if not form.is_submitted() and number is not None:
        fill_from_round(form, game, number)

    def round_entry() -> RecordRound:
        return RecordRound(
            game_id=game.id,
            version=form.version_number(),
            went_out=form.went_out.data or "",
            caught=form.caught_by_player(game.players),
            at_once=bool(form.at_once.data),
            cut_exactly=form.cut_exactly.data or None,
            confirmed=form.confirmed.data == "1",
            number=number,
            drawn_for=form.drawn_for(),
            drafts_seen=form.seen_drafts(),
        )

    return entry_page(game, number, form, round_entry, "round_form.html")


def entry_form_data(game: Game, number: int | None) -> dict[str, object]:
    """What an entry form is drawn for: the game's version, the round, a fresh entry key."""
    drawn_for = number or game.current_round
    return {"version": game.version, "round_number": str(drawn_for), "entry_key": new_entry_key()}


def entry_page(
    game: Game, number: int | None, form: EntryForm, make: Callable[[], Command[Game]], template: str, **context: object
) -> ResponseReturnValue:
    """One flow for every entry form: save what validates, once, for the round it was drawn for;
    or show the form again with what was typed and what the write came to."""
    outcome = page_entry(make, form.entry_key.data) if form.validate_on_submit() else None
    if isinstance(outcome, Saved | AlreadySaved):
        flash(saved_words(outcome, game.ruleset.round_word, form.drawn_for(), number), "ok")
        if isinstance(outcome, Saved) and number is None:
            offer_undo(outcome.result, confirm=True)
        return redirect(url_for("games.show", game_id=game.id))
    if isinstance(outcome, Locked):
        return needs_unlock(outcome.refusal)
    if isinstance(outcome, RecordedSince | MovedOn):  # drawn again from the game as it is now
        game = reload(game.id).game
    redraw = Redraw.of(outcome, game, form, number)
    shown = describe_round(game.setup, redraw.number or game.current_round or 1)
    return render_template(template, game=game, form=form, round=shown, **vars(redraw), **context), redraw.status


def saved_words(outcome: Saved[Game] | AlreadySaved, word: str, drawn_for: int | None, number: int | None) -> str:
    done = f"{word.capitalize()} {drawn_for}"
    if isinstance(outcome, AlreadySaved):  # the same form, sent twice at once: the second waited for the first
        return f"{done} was already saved (Save was tapped twice): nothing more was recorded."
    return f"{done} saved" + (" (corrected)" if number else "")


@dataclass(frozen=True)
class Redraw:
    """An entry form drawn again: for which round (a correction's number), the page's status, and
    what it says above the form (the round saved meanwhile, a question, a refusal)."""

    number: int | None
    status: int = 200
    already_saved: int | None = None
    question: str | None = None
    refusal: str | None = None

    @staticmethod
    def of(outcome: Outcome[Game] | None, game: Game, form: EntryForm, number: int | None) -> Redraw:
        word = game.ruleset.round_word
        match outcome:
            case RecordedSince(number=taken):
                # A form drawn for a round recorded since (another phone, or Back then Save): never a new
                # round, and never these hands under another round's number; redrawn as a correction of
                # that round, holding what was typed, beside what was saved.
                form.version.data, form.round_number.data = str(game.version), str(taken)
                return Redraw(taken, 409, already_saved=taken, refusal=recorded_since_message(word, taken))
            case MovedOn():  # still the same entry to make: the next Save goes through, with what was typed
                form.version.data = str(game.version)
                return Redraw(number, 409, refusal=moved_on_message(game, word))
            case Refused(error=error):
                form.refuse(error, game.players)
            case ToConfirm(question=question):
                form.confirmed.data = "1"
                return Redraw(number, question=question)
        return Redraw(number, 400 if form.is_submitted() else 200)


def recorded_since_message(word: str, number: int) -> str:
    return (
        f"{word.capitalize()} {number} was saved on another phone (or by an earlier Save) "
        f"while you entered it: nothing was recorded. Yours is kept below, beside the one saved: "
        f"correct {word} {number} with yours, or go back to the game."
    )


def moved_on_message(game: Game, word: str) -> str:
    """A form refused because the game moved on meanwhile (a buy, an undo, a correction on another
    phone): what changed, and that one more tap saves what was typed."""
    return (
        f"Not saved yet: the game changed on another phone while you entered this {word} "
        f"({loading.latest_change(game)}). "
        f"Everything you typed is kept below: check it against the change, then tap Save again."
    )


def fill_from_hand(form: HandForm, game: Game, number: int) -> None:
    """Load a recorded hand into the form, to correct it."""
    record = game.record(number)
    assert isinstance(record, HandRecord)
    form.went_out.data = record.went_out or NOBODY
    for entry, side in zip(form.sides, record.sides, strict=False):
        f = entry.form
        f.red_threes.data = side.red_threes
        for kind, count in side.books.items():
            getattr(f, kind).data = count
        f.melded.data = " ".join(map(str, side.melded)) if side.melded is not None else ""
        f.melded_points.data = side.melded_points
        for seat, name in enumerate(side.players):
            f.hands[seat].data = " ".join(map(str, side.hands.get(name, ())))
            f.piles[seat].data = " ".join(map(str, side.piles.get(name, ())))
            f.hand_points[seat].data = side.hand_points.get(name)
            f.pile_points[seat].data = side.pile_points.get(name)


def fill_from_round(form: RoundForm, game: Game, number: int) -> None:
    result = game.rounds[number - 1]
    form.went_out.data = result.went_out
    out = result.results.get(result.went_out or "")
    form.at_once.data = isinstance(out, PlayerResult) and out.bonus > 0
    cutters = [name for name, r in result.results.items() if isinstance(r, PlayerResult) and r.cut_bonus]
    form.cut_exactly.data = cutters[0] if cutters else ""
    for name, entry in zip(game.players, form.caught, strict=True):
        entry.data = " ".join(str(card) for card in result.results[name].cards)
