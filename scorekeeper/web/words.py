"""The words of every page and PDF: the template filters, each one of the app's own helpers, in
one place (money as money, scores with the one minus sign, plurals, lists of names, times as the
table's clock reads them)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

from flask import Flask
from markupsafe import Markup, escape

from ..reads.night_report import party_label
from ..reads.notes import one_line
from ..reads.scorepad import round_cells
from ..rules.cards import parse_hand
from ..rules.ledger import format_cents, format_money, minus, signed, signed_cents
from ..rules.wording import listed, plural


def on_this_clock(stamp: str) -> datetime | None:
    """A moment as stored (UTC, ISO 8601) in the server's time zone, the table's: a game begun at
    21:30 in Chicago was begun at 21:30, not at 03:30 the next day. None for a stamp that is none."""
    try:
        moment = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone()


def local_time(stamp: str) -> str:
    """'2026-11-26 21:30' (a stamp that is no time is shown as it is)."""
    moment = on_this_clock(stamp)
    return moment.strftime("%Y-%m-%d %H:%M") if moment else str(stamp)[:16].replace("T", " ")


def local_day(stamp: str) -> str:
    """'2026-11-26': the day on the table's clock."""
    moment = on_this_clock(stamp)
    return moment.strftime("%Y-%m-%d") if moment else str(stamp)[:10]


def written_day(day: date) -> str:
    """'Thursday 3 December 2026': a day as a person writes it, the one way every PDF heads with (issue 60)."""
    return f"{day:%A} {day.day} {day:%B %Y}"


def written_day_of(stamp: str) -> str:
    """The day of a stored moment on the table's clock, written as every PDF writes it ("" for none)."""
    moment = on_this_clock(stamp)
    return written_day(moment.date()) if moment else ""


def local_clock(stamp: str) -> str:
    """'21:30': the time of day on the table's clock (a history entry's)."""
    moment = on_this_clock(stamp)
    return moment.strftime("%H:%M") if moment else str(stamp)[11:16]


# A card as the app prints it (K♦, 10♥, JKR), standing alone in a line of words.
_PRINTED_CARD = re.compile(r"(?<![\w♠♥♦♣])(?:(?:10|[2-9AJQK])[♠♥♦♣]|JKR)(?![\w♠♥♦♣])")


def cards_said(text: str) -> Markup:
    """A line of words with each printed card shown to the eye and named to a screen reader ("king of
    diamonds", never "K black diamond suit": issue 60)."""

    def said(found: re.Match[str]) -> str:
        (card,) = parse_hand(found.group(0))
        return f'<span aria-hidden="true">{found.group(0)}</span><span class="visually-hidden">{card.spoken()}</span>'

    return Markup(_PRINTED_CARD.sub(said, str(escape(text))))


FILTERS: dict[str, Callable[..., str]] = {
    "cards_said": cards_said,  # "Bob: K♦ 7♣" with the cards named for a screen reader
    "money": format_money,  # a count of pennies at its game's penny value: 22|money(5) → "$1.10"
    "cents": format_cents,  # an amount in cents → "$0.35"
    "signed_cents": signed_cents,  # "+$0.33", "−$0.90"
    "signed": signed,  # "+4", "−2"
    "score": minus,  # a score or total with the app's one minus sign ("−350")
    "one_line": one_line,  # a note on one line
    "listed": listed,  # "Ann, Bob and Cy"
    "party": party_label,  # who pays or is paid: a player's name, or "the bowl" (never a name)
    "counted": plural,  # "1 penny", "2 pennies": 2|counted('penny', 'pennies')
    "local_time": local_time,  # a stored moment on the server's clock: "2026-11-26 21:30"
    "local_day": local_day,  # "2026-11-26"
    "local_clock": local_clock,  # "21:30"
}
GLOBALS: dict[str, Callable[..., Any]] = {"scorepad_cells": round_cells}


def register(app: Flask) -> None:
    for name, function in FILTERS.items():
        app.add_template_filter(function, name)
    for name, function in GLOBALS.items():
        app.add_template_global(function, name)
