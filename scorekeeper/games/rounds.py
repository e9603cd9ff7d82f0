"""The round and hand forms: a round or a hand entered or corrected, with drafts, questions and refusals."""

from __future__ import annotations

from collections.abc import Callable

from flask import abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue

from ..commands.games import AlreadyRecorded, RecordHand, RecordRound
from ..reads import loading
from ..rules.game import Game, HandRecord
from ..rules.game_json import describe_round
from ..rules.scoring import PlayerResult
from ..rules.setup import GameError
from ..store import StaleWrite
from ..web import changes, page_entry
from .forms import NOBODY, EntryForm, HandForm, RoundForm
from .pages import Unusual, bp, load, new_entry_key, offer_undo, reload


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

    def save() -> Game | None:
        hand = RecordHand(
            game_id=game.id,
            version=form.version_number(),
            went_out=form.went_out_name(),
            sides=form.sides_data(sides),
            number=number,
            drawn_for=form.drawn_for(),
            drafts_seen=form.seen_drafts(),
        )
        return page_entry(hand, form.entry_key.data)

    sides_shown = list(zip(game.competitors, sides, form.sides, strict=False))
    return entry_page(game, number, form, save, "hand_form.html", sides=sides_shown, minimums=game.board_minimums())


def round_form_entry(game: Game, number: int | None) -> ResponseReturnValue:
    """A round: who went out, and each player's cards caught in hand."""
    form = RoundForm.for_players(game.players, **entry_form_data(game, number))
    if not form.is_submitted() and number is not None:
        fill_from_round(form, game, number)

    def save() -> Game | None:
        caught = form.caught_by_player(game.players)
        if form.confirmed.data != "1" and not any(text.strip() for text in caught.values()):
            raise Unusual(
                f"Nobody but {form.went_out.data} was caught with cards? Tap Save again to record it like that."
            )
        entry = RecordRound(
            game_id=game.id,
            version=form.version_number(),
            went_out=form.went_out.data or "",
            caught=caught,
            at_once=bool(form.at_once.data),
            number=number,
            drawn_for=form.drawn_for(),
            drafts_seen=form.seen_drafts(),
        )
        return page_entry(entry, form.entry_key.data)

    return entry_page(game, number, form, save, "round_form.html")


def entry_form_data(game: Game, number: int | None) -> dict[str, object]:
    """What an entry form is drawn for: the game's version, the round, a fresh entry key."""
    drawn_for = number or game.current_round
    return {"version": game.version, "round_number": str(drawn_for), "entry_key": new_entry_key()}


def entry_page(
    game: Game,
    number: int | None,
    form: EntryForm,
    save: Callable[[], Game | None],
    template: str,
    **context: object,
) -> ResponseReturnValue:
    """One flow for every entry form: save what validates, once, for the round it was drawn for;
    or show the form again with what was typed and the reason it was refused."""
    word = game.ruleset.round_word
    status, already_saved, question, refusal = 200, None, None, None
    if form.validate_on_submit():
        try:
            after = save()
        except AlreadyRecorded as error:
            # A form drawn for a round that is recorded since (another phone, or Back then Save): never
            # a new round, and never these hands under another round's number.
            game = reload(game.id).game
            status, already_saved = 409, error.number
        except GameError as error:
            form.refuse(error, game.players)
        except StaleWrite:  # still the same entry to make: the next Save goes through, with what was typed
            game = reload(game.id).game
            status, refusal = 409, moved_on_message(game, word)
            form.version.data = str(game.version)
        except Unusual as unusual:
            question, form.confirmed.data = str(unusual), "1"
        else:
            done = f"{word.capitalize()} {form.drawn_for()}"
            if after is None:  # the same form, sent twice at once: the second waited for the first
                flash(f"{done} was already saved (Save was tapped twice): nothing more was recorded.", "ok")
            else:
                flash(f"{done} saved" + (" (corrected)" if number else ""), "ok")
                if number is None:
                    offer_undo(after, confirm=True)
            return redirect(url_for("games.show", game_id=game.id))
    if already_saved is not None:
        # Redrawn as a correction of that round, holding what was typed, beside what was saved.
        refusal = (
            f"{word.capitalize()} {already_saved} was saved on another phone (or by an earlier Save) "
            f"while you entered it: nothing was recorded. Yours is kept below, beside the one saved: "
            f"correct {word} {already_saved} with yours, or go back to the game."
        )
        number = already_saved
        form.version.data, form.round_number.data = str(game.version), str(already_saved)
    if form.is_submitted() and status == 200:
        status = 200 if question else 400
    shown = number or game.current_round or 1
    page = render_template(
        template,
        game=game,
        form=form,
        number=number,
        round=describe_round(game.setup, shown),
        already_saved=already_saved,
        question=question,
        refusal=refusal,
        **context,
    )
    return page, status


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
    for name, entry in zip(game.players, form.caught, strict=True):
        entry.data = " ".join(str(card) for card in result.results[name].cards)
