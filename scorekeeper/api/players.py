"""The API of players' records (issue 29): the leaderboard, a player, head to head, by season."""

from __future__ import annotations

from typing import Any

from flask import jsonify, request
from flask.typing import ResponseReturnValue

from ..players import records
from ..store import get_store
from ..store import records as stored
from ..web import current_catalog, rating_worker
from .base import bp

# --- players' records (issue 29) ------------------------------------------------------------------


def season_asked() -> records.Season:
    """``?ruleset=&from=&to=`` (or ``year=``); a bad one is a 400 that names it."""
    return records.parse_season(request.args, records.known_rulesets(get_store(), current_catalog()))


@bp.get("/players")
def players() -> ResponseReturnValue:
    """``[{"id", "name"}]``: everyone who has played, by name."""
    return jsonify(stored.players(get_store()))


@bp.get("/players/<int:player_id>")
def player(player_id: int) -> ResponseReturnValue:
    """A player's record over the finished games asked for: ``games``, ``wins``, ``win_rate`` (a
    fraction), ``longest_streak``, ``money_cents``, ``points_per_round`` (with a ruleset), ``best_round``,
    ``worst_round``, money by month and year, and ``rating`` only while the house has it on."""
    store = get_store()
    found = store.player(player_id)
    season = season_asked()
    answer: dict[str, Any] = {"id": found["id"], "name": found["name"], **season_fields(season)}
    answer |= records.player_record(store, current_catalog(), player_id, season)
    rating = records.rating_of(store, rating_worker(), player_id)
    if rating is not None:
        answer["rating"] = rating
    return jsonify(answer)


@bp.get("/players/<int:player_id>/versus/<int:other_id>")
def versus(player_id: int, other_id: int) -> ResponseReturnValue:
    """Two players' finished games against each other: ``games``, ``ahead``, ``behind`` (the first
    player's view) and ``money_cents``, the first's money minus the second's over those games."""
    store = get_store()
    for someone in (player_id, other_id):
        store.player(someone)  # 404 naming a player who does not exist
    season = season_asked()
    return jsonify(
        {
            "player": player_id,
            "other": other_id,
            **season_fields(season),
            **records.versus_record(store, player_id, other_id, season),
        }
    )


def season_fields(season: records.Season) -> dict[str, str | None]:
    return {"ruleset": season.ruleset or None, "from": season.start, "to": season.end}
