"""Exports as files: JSON (lossless, re-importable) and CSV (one row per player per round)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from typing import Any

from flask import Response

from ..rules.books import SideResult
from ..rules.cards import format_hand
from ..rules.game import Game
from ..rules.scoring import PlayerResult
from ..store.exchange import JSON_LAYOUT


def to_json_text(data: dict[str, Any]) -> str:
    """Stable text: the same data always gives the same bytes (so exports can be compared)."""
    return json.dumps(data, **JSON_LAYOUT) + "\n"


# pennies: a count (one a card caught); card_cents: what those pennies are worth at the game's penny value.
CSV_COLUMNS = [
    "game",
    "ruleset",
    "round",
    "player",
    "went_out",
    "cards",
    "points",
    "pennies",
    "buys",
    "total",
    "penny_cents",
    "card_cents",
]
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A spreadsheet must not run a name as a formula (OWASP): text that starts like one gets a
    leading apostrophe; numbers are left as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def to_csv_text(games: Iterable[Game]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for game in games:
        for result, running in zip(game.rounds, game.running_totals(), strict=True):
            for name in game.competitors:
                r = result.results[name]
                cards = format_hand(r.cards) if isinstance(r, PlayerResult) else ""
                went_out = r.went_out if isinstance(r, SideResult) else name == result.went_out
                buys = sum(result.buys.get(player, 0) for player in game.setup.side_players(name))
                value = game.setup.penny_cents
                row = [
                    game.id,
                    game.ruleset.id,
                    result.number,
                    name,
                    int(went_out),
                    cards,
                    r.points,
                    r.pennies,
                    buys,
                    running[name],
                    value,
                    r.pennies * value,
                ]
                writer.writerow([csv_cell(value) for value in row])
    return out.getvalue()


def entries_csv_text(dump: dict[str, Any]) -> str:
    """The rounds as they were entered (who went out, the cards each player was caught with), for a
    game the engine cannot score (its ruleset file is gone): the columns of to_csv_text, scores blank."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for game in dump["games"]:
        for event in game["events"]:
            if event["kind"] != "round":
                continue
            payload = event["payload"]
            for name, cards in payload["caught"].items():
                row = [game["id"], game["ruleset"], payload["round"], name, 0, cards, "", "", "", "", "", ""]
                writer.writerow([csv_cell(value) for value in row])
            writer.writerow(
                [
                    csv_cell(v)
                    for v in [game["id"], game["ruleset"], payload["round"], payload["went_out"], 1, *[""] * 7]
                ]
            )
    return out.getvalue()


def download(text: str, mimetype: str, filename: str) -> Response:
    """A file for the browser to save."""
    response = Response(text, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
