"""The house-rules form as typed: every field under the name the ruleset reader gives it
(``cards_dealt``, ``buys.stack``, ``rounds[3].contract.size``), so a refusal of the reader lands on
the field it names, and what was typed comes back as typed.

``Typed`` goes both ways: from a ruleset's document (the form's first drawing) and from a posted form
(a refused save, Add a round, a round moved), and into the document the reader checks. Nothing here
decides a rule: a value is passed on as typed (digits as a number) and the reader refuses it in its
own words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..rules.cards import Rank
from ..rules.rulesets import MELD_WORDS, MOST_ROUNDS, BookRule, Family
from ..web.forms import whole_number

FLAGS = (
    "suits_required",
    "no_duplicates",
    "contract_exact",
    "wilds_at_most_naturals",
    "wild_rank_sets",
    "runs_wrap",
    "lay_offs_only",
    "wilds_fewer_than_naturals",
    "no_touching_wilds",
)
FLAGS_ON = ("contract_exact", "wild_rank_sets", "runs_wrap")  # what a document that leaves a flag out means
NUMBERS = (
    "players.min",
    "players.max",
    "cards_dealt",
    "pile_size",
    "run_min",
    "out_at_once_bonus",
    "exact_cut_bonus",
    "money.pennies_per_card",
    "decks.jokers_per_deck",
    "decks.players_per_deck",
    "decks.base",
    "decks.extra_per_side",
    "decks.jokers_fewer_than_players",
)
TEXTS = ("name", "summary", "winner", "meld_kinds")
WORDS = tuple(f"meld_words.{key}" for key in MELD_WORDS)  # the game's own words for its melds
BUYS = ("stack", "pennies", "cards", "first_round", "free_per_round", "penalty_points", "most_per_round")
LATER = ("min_size", "max_wilds")
BOOKS = tuple(BookRule.__dataclass_fields__)
RANKS = tuple(rank.label for rank in Rank)
DECK_ROWS = 4  # rows of "up to N players: D decks" the form offers
CONTRACT_PARTS = ("melds", "size", "sets", "runs", "run_size")
# a round's own numbers
ROUND_FIGURES = ("wild_limit", "wild_limit_per_kind", "board_minimum", "cards_dealt", "most_buys")
ROUND_NUMBERS = (*(f"contract.{part}" for part in CONTRACT_PARTS), *ROUND_FIGURES)
WILD_CHOICES = ("2", "A", "JKR")  # what families make wild; a ruleset's other wild ranks are offered too
MELD_CHOICES = {"set": ["set"], "set run": ["set", "run"], "book": ["book"]}
MOST_FORM_ROUNDS = MOST_ROUNDS + 5  # rows read from a post: beyond that a round is not the reader's to refuse

_ROUND_NAME = re.compile(r"rounds\[(\d{1,3})\]\.(.+)")


@dataclass
class Typed:
    """The form's fields as text (a box: "on" or ""; wilds: the ranks ticked), rounds in order."""

    family: Family
    fields: dict[str, str] = field(default_factory=dict)
    rounds: list[dict[str, Any]] = field(default_factory=list)

    def value(self, name: str) -> str:
        """A field's text by its full name, rounds included (``rounds[2].contract.size``)."""
        found = _ROUND_NAME.fullmatch(name)
        if found:
            index = int(found.group(1)) - 1
            if 0 <= index < len(self.rounds):
                text = self.rounds[index].get(found.group(2), "")
                return text if isinstance(text, str) else ""
            return ""
        return self.fields.get(name, "")

    def flags_on(self) -> list[str]:
        """The boxes ticked: a books game's form keeps them as hidden fields (its page shows none)."""
        return [flag for flag in FLAGS if self.fields.get(flag) == "on"]

    def wilds(self, index: int) -> list[str]:
        return list(self.rounds[index].get("wilds", []))

    def wild_choices(self) -> list[str]:
        """The ranks a round's wilds are ticked from: the usual three and any other already wild."""
        extra = {label for row in self.rounds for label in row.get("wilds", []) if label not in WILD_CHOICES}
        return [*WILD_CHOICES, *sorted(extra, key=RANKS.index)]

    # --- changes a form asks for before it is saved ---------------------------------------------

    def add_round(self) -> None:
        """A round like the last one (a family adding a round usually changes only its contract)."""
        self.rounds.append(dict(self.rounds[-1]) if self.rounds else {"wilds": ["2"]})

    def move_round(self, number: int, by: int) -> None:
        index, other = number - 1, number - 1 + by
        if 0 <= index < len(self.rounds) and 0 <= other < len(self.rounds):
            self.rounds[index], self.rounds[other] = self.rounds[other], self.rounds[index]

    def remove_round(self, number: int) -> None:
        if 0 < number <= len(self.rounds):
            del self.rounds[number - 1]


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def from_document(document: Mapping[str, Any]) -> Typed:
    """The form as first drawn: a ruleset's document, field by field."""
    typed = Typed(Family(document["family"]))
    fields = typed.fields
    for name in TEXTS:
        fields[name] = _text(document.get(name))
    fields["meld_kinds"] = " ".join(document.get("meld_kinds", []))
    for key in MELD_WORDS:
        fields[f"meld_words.{key}"] = _text(document.get("meld_words", {}).get(key))
    for name in NUMBERS:
        head, _, tail = name.partition(".")
        fields[name] = _text(document.get(head, {}).get(tail) if tail else document.get(head))
    for flag in FLAGS:
        fields[flag] = "on" if document.get(flag, flag in FLAGS_ON) else ""
    for label, points in document.get("points", {}).items():
        fields[f"points.{label}"] = _text(points)
    for number, row in enumerate(document.get("decks", {}).get("table", []), start=1):
        fields[f"decks.table[{number}].max_players"] = _text(row.get("max_players"))
        fields[f"decks.table[{number}].decks"] = _text(row.get("decks"))
    for table, names in (("buys", BUYS), ("later_melds", LATER), ("books", BOOKS)):
        values = document.get(table)
        fields[table] = "on" if values is not None else ""
        for name in names:
            fields[f"{table}.{name}"] = _text((values or {}).get(name))
    for row in document.get("rounds", []):
        contract = row.get("contract") or {}
        typed_row: dict[str, Any] = {f"contract.{part}": _text(contract.get(part)) for part in CONTRACT_PARTS}
        typed_row["wilds"] = list(row.get("wilds", []))
        for part in ROUND_FIGURES:
            typed_row[part] = _text(row.get(part))
        typed.rounds.append(typed_row)
    return typed


def from_post(form: Mapping[str, str], wilds_of: Any, family: Family) -> Typed:
    """The form as posted. ``wilds_of(name)`` gives the ticked ranks of a round's ``wilds`` boxes."""
    typed = Typed(family)
    names = [*TEXTS, *WORDS, *NUMBERS, *(f"points.{label}" for label in RANKS)]
    names += [f"decks.table[{n}].{part}" for n in range(1, DECK_ROWS + 1) for part in ("max_players", "decks")]
    for table, parts in (("buys", BUYS), ("later_melds", LATER), ("books", BOOKS)):
        names += [f"{table}.{part}" for part in parts]
    for name in names:
        typed.fields[name] = form.get(name, "").strip()
    for box in (*FLAGS, "buys", "later_melds"):
        typed.fields[box] = "on" if form.get(box) else ""
    typed.fields["books"] = "on" if family is Family.BOOKS else ""
    for number in range(1, MOST_FORM_ROUNDS + 1):
        prefix = f"rounds[{number}]."
        if f"{prefix}present" not in form:
            break
        row: dict[str, Any] = {part: form.get(prefix + part, "").strip() for part in ROUND_NUMBERS}
        row["wilds"] = [label for label in wilds_of(prefix + "wilds") if label in RANKS]
        typed.rounds.append(row)
    return typed


def _number(text: str) -> int | str:
    """Digits as a number; anything else passed on as typed, for the reader to refuse in its words."""
    number = whole_number(text)
    return text if number is None else number


def _put(table: dict[str, Any], key: str, text: str) -> None:
    if text != "":
        table[key] = _number(text)


def to_document(typed: Typed, ruleset_id: str) -> dict[str, Any]:
    """What the reader reads: a field left blank is left out (its default, or "is missing")."""
    f = typed.fields
    document: dict[str, Any] = {"id": ruleset_id, "family": typed.family.value}
    for name in ("name", "summary", "winner"):
        if f.get(name, ""):
            document[name] = f[name]
    document["meld_kinds"] = MELD_CHOICES.get(f.get("meld_kinds", ""), f.get("meld_kinds", "").split())
    words = {key: f[f"meld_words.{key}"] for key in MELD_WORDS if f.get(f"meld_words.{key}", "")}
    if words:
        document["meld_words"] = words
    for flag in FLAGS:
        document[flag] = f.get(flag) == "on"
    for name in NUMBERS:
        head, _, tail = name.partition(".")
        if tail:
            _put(document.setdefault(head, {}), tail, f.get(name, ""))
        else:
            _put(document, head, f.get(name, ""))
    document["points"] = {}
    for label in RANKS:
        _put(document["points"], label, f.get(f"points.{label}", ""))
    rows = []
    for number in range(1, DECK_ROWS + 1):
        most, decks = f.get(f"decks.table[{number}].max_players", ""), f.get(f"decks.table[{number}].decks", "")
        if most or decks:
            row: dict[str, Any] = {}
            _put(row, "max_players", most)
            _put(row, "decks", decks)
            rows.append(row)
    if rows:
        document.setdefault("decks", {})["table"] = rows
    for table, parts in (("buys", BUYS), ("later_melds", LATER), ("books", BOOKS)):
        if f.get(table) == "on":
            document[table] = {}
            for part in parts:
                _put(document[table], part, f.get(f"{table}.{part}", ""))
    document["rounds"] = [_round_document(row, typed.family) for row in typed.rounds]
    return document


def _round_document(row: Mapping[str, Any], family: Family) -> dict[str, Any]:
    document: dict[str, Any] = {"wilds": list(row.get("wilds", []))}
    if family is Family.CONTRACT:
        contract: dict[str, Any] = {}
        for part in CONTRACT_PARTS:
            _put(contract, part, row.get(f"contract.{part}", ""))
        document["contract"] = contract
    for part in ROUND_FIGURES:
        _put(document, part, row.get(part, ""))
    return document
