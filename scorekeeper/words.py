"""The words of every page and PDF: the template filters, each one of the app's own helpers, in
one place (money as money, scores with the one minus sign, plurals, lists of names)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask

from .night_report import party_label
from .notes import one_line
from .rules.ledger import format_cents, format_money, minus, signed, signed_cents
from .rules.wording import listed, plural
from .scorepad import round_cells

FILTERS: dict[str, Callable[..., str]] = {
    "money": format_money,  # a count of pennies at its game's penny value: 22|money(5) → "$1.10"
    "cents": format_cents,  # an amount in cents → "$0.35"
    "signed_cents": signed_cents,  # "+$0.33", "−$0.90"
    "signed": signed,  # "+4", "−2"
    "score": minus,  # a score or total with the app's one minus sign ("−350")
    "one_line": one_line,  # a note on one line
    "listed": listed,  # "Ann, Bob and Cy"
    "party": party_label,  # who pays or is paid: a player's name, or "the bowl" (never a name)
    "counted": plural,  # "1 penny", "2 pennies": 2|counted('penny', 'pennies')
}
GLOBALS: dict[str, Callable[..., Any]] = {"scorepad_cells": round_cells}


def register(app: Flask) -> None:
    for name, function in FILTERS.items():
        app.add_template_filter(function, name)
    for name, function in GLOBALS.items():
        app.add_template_global(function, name)
