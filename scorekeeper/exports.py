"""Exports as files: JSON (lossless, re-importable) and CSV (one row per player per round)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from typing import Any

from flask import Response

from .rules.cards import format_hand
from .rules.game import Game


def to_json_text(data: dict[str, Any]) -> str:
    """Stable text: the same data always gives the same bytes (so exports can be compared)."""
    return json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


CSV_COLUMNS = ["game", "ruleset", "round", "player", "went_out", "cards", "points", "pennies", "buys", "total"]


def to_csv_text(games: Iterable[Game]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for game in games:
        for result, running in zip(game.rounds, game.running_totals(), strict=True):
            for name in game.competitors:
                r = result.results[name]
                cards = format_hand(getattr(r, "cards", ()))
                went_out = name == result.went_out or getattr(r, "went_out", False) is True
                buys = sum(result.buys.get(p, 0) for p in name.split(" & "))
                writer.writerow(
                    [game.id, game.ruleset.id, result.number, name, int(went_out), cards, r.points, r.pennies, buys,
                     running[name]]
                )  # fmt: skip
    return out.getvalue()


def download(text: str, mimetype: str, filename: str) -> Response:
    """A file for the browser to save."""
    response = Response(text, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
