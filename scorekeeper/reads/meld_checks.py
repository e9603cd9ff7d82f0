"""The meld checker's one entry point for both the page and the API: parse the typed
cards, then ask the rules engine the question of the stage."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence

from ..rules.cards import Card, CardError, parse_hand
from ..rules.contract import find_contract
from ..rules.go_down import GoDownAnswer, can_go_down
from ..rules.melds import MeldError, Stage, Verdict, check_layoff, check_melds
from ..rules.rulesets import Ruleset


class MeldQuestionError(ValueError):
    """The question cannot be asked as typed (bad card, round out of range, unknown stage)."""


class TooBusy(MeldQuestionError):
    """Other searches of hands use every place: asked again in a moment, it is answered (503)."""


# Searches of a whole hand at once, at most: each is bounded (the search's budget), and the server's
# other threads stay free for pages, saves and /healthz however many phones ask together.
SEARCHES_AT_ONCE = 2
_searching = threading.BoundedSemaphore(SEARCHES_AT_ONCE)


@contextlib.contextmanager
def a_place_to_search() -> Iterator[None]:
    if not _searching.acquire(blocking=False):
        raise TooBusy("the server is checking other hands right now: ask again in a moment")
    try:
        yield
    finally:
        _searching.release()


def parse_cards(text: str, what: str, ruleset: Ruleset) -> tuple[Card, ...]:
    try:
        return parse_hand(text, require_suits=ruleset.suits_required)
    except CardError as error:
        raise MeldQuestionError(f"{what}: {error}") from None


MAX_HAND_TEXT = 4000  # characters: the largest deal (216 cards) typed with suits and spaces fits


def bounded_hand(ruleset: Ruleset, text: str, what: str) -> tuple[Card, ...]:
    """A hand as typed, never more cards than the decks of the largest table hold."""
    if len(text) > MAX_HAND_TEXT:
        raise MeldQuestionError(f"{what}: more than {MAX_HAND_TEXT} characters is no hand of cards")
    hand = parse_cards(text, what, ruleset)
    if len(hand) > ruleset.largest_deal:
        raise MeldQuestionError(
            f"a hand of {len(hand)} cards is more than the decks of the largest {ruleset.name} table "
            f"hold ({ruleset.largest_deal} cards for {ruleset.players_max} players)"
        )
    return hand


def go_down(ruleset: Ruleset, number: int, text: str) -> GoDownAnswer:
    """ "Can I go down with these?" for round ``number``: read-only, the player's own question."""
    try:
        ruleset.round(number)
    except ValueError as error:
        raise MeldQuestionError(str(error)) from None
    hand = bounded_hand(ruleset, text, "your cards")
    try:
        with a_place_to_search():
            return can_go_down(ruleset, number, hand)
    except MeldError as error:  # the search's budget spent: said, never guessed
        raise MeldQuestionError(str(error)) from None


def check(
    ruleset: Ruleset, number: int, stage: str, melds: Sequence[str], onto: str = "", side_score: int = 0
) -> Verdict:
    try:
        ruleset.round(number)
        question = Stage.parse(stage)
    except ValueError as error:
        raise MeldQuestionError(str(error)) from None
    lines = [line for line in melds if line.strip()]
    try:
        if question is Stage.HAND:
            if len(lines) != 1:
                raise MeldQuestionError("give the whole hand as one line of cards")
            hand = bounded_hand(ruleset, lines[0], "the hand")
            with a_place_to_search():
                return find_contract(ruleset, number, hand)
        cards = [parse_cards(line, f"meld {i}", ruleset) for i, line in enumerate(lines, start=1)]
        if question is Stage.LAYOFF:
            if not onto.strip():
                raise MeldQuestionError("say which meld on the table the cards go onto")
            if len(cards) != 1:
                raise MeldQuestionError("give the cards laid off as one line")
            return check_layoff(ruleset, number, parse_cards(onto, "the meld on the table", ruleset), cards[0])
        return check_melds(ruleset, number, cards, question, side_score)
    except MeldError as error:
        raise MeldQuestionError(str(error)) from None
