"""The English of the rules' messages and the pages: counts with their nouns, lists of names,
ordinals. Pure words; the engine's checks and the app's templates both say things this way."""

from __future__ import annotations

from collections.abc import Sequence

from .ledger import minus


def plural(count: int, noun: str, many: str | None = None) -> str:
    """ "1 deck", "2 decks"; ``many`` for nouns that do not just take an s ("penny", "pennies").
    Below zero with a minus sign, not a hyphen ("−350 points")."""
    return f"{minus(count)} {noun if count == 1 else many or noun + 's'}"


def listed(names: Sequence[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy": names as a sentence says them."""
    if len(names) <= 2:
        return " and ".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def ordinal(number: int) -> str:
    """ "1st", "2nd", "11th", "23rd": the 11th to 13th (and 111th…) take "th"."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def sentence_start(text: str) -> str:
    """ "an escala …" as a sentence begins it: the first letter up, the rest as written (not str.capitalize,
    which would lower a house's "Escala Real")."""
    return text[:1].upper() + text[1:]
