"""Names that cannot be confused at one table: a name must show something, and two names that look
alike (a Cyrillic А for a Latin A, full-width letters, 0 for O) are not seated side by side.

Look-alikes are found by a skeleton in the manner of Unicode's UTS #39: each character is replaced by
one representative of the characters Unicode lists as confusable with it (the confusables data as
the ``confusable_homoglyphs`` package bundles it), after compatibility normalisation, and case is
ignored. Characters Unicode links by a chain of look-alikes share one representative (so l, I and 1
are one), which is stricter than UTS #39 by a little: for names at one table, the safer side.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs.confusables import confusables_data

# Characters that draw nothing although Unicode calls them letters or symbols (Hangul fillers, the
# blank Braille pattern, Khmer inherent vowels, the Mongolian vowel separator): a name of these
# looks empty, and one with them looks like a shorter name.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e")


@functools.cache
def _representatives() -> dict[str, str]:
    """Each confusable character's representative: the lowest code point of its class."""
    parent: dict[str, str] = {}

    def find(char: str) -> str:
        while parent.get(char, char) != char:
            char = parent[char]
        return char

    for char, alikes in confusables_data.items():
        if len(char) != 1:
            continue
        for alike in alikes:
            if len(alike["c"]) == 1:
                first, second = sorted((find(char), find(alike["c"])))
                if first != second:
                    parent[second] = first
    return {char: find(char) for char in parent}


def look_alike_key(name: str) -> str:
    """Two names with the same key look alike: ``Ann``, ``Аnn`` (Cyrillic А), ``ＡＮＮ``, ``ann``."""
    representatives = _representatives()

    def mapped(text: str) -> str:
        return "".join(representatives.get(char, char) for char in text)

    # Look-alikes of either case: in capitals first ("BOB" and "B0B": 0 for O; a lower-case o has no
    # look-alike among the digits, so "Bob" must be read as "BOB"), then once more after case is
    # folded ("Аnn" with a Cyrillic А).
    capitals = unicodedata.normalize("NFKD", name).upper()
    return unicodedata.normalize("NFKD", mapped(mapped(capitals).casefold()))


def blank_looking_position(name: str) -> int | None:
    """The 1-based position of the first character that draws nothing (see BLANK_LOOKING), if any."""
    for position, char in enumerate(name, start=1):
        if char in BLANK_LOOKING:
            return position
    return None
