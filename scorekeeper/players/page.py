"""A player's page in words, made here and tested in Python (plurals, money, rounds and contracts);
the template lays them out. Built from the player's record for a season, their finished games added
up by ruleset, and their games one by one."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from ..rules.ledger import minus, signed_cents
from ..rules.rulesets import Ruleset, Winner
from ..rules.wording import plural
from ..store.rows import HistoryRow, StatsRow
from ..web.words import local_day


def tone(cents: int) -> str:
    """The colour class of an amount of money: up, down, or neither."""
    return "plus" if cents > 0 else "minus" if cents < 0 else ""


@dataclass(frozen=True)
class Figure:
    """One figure of a player's record: its name, its value, a quieter aside, and where it links."""

    term: str
    value: str
    aside: str = ""
    tone: str = ""
    link: str = ""


def one_place(number: float) -> str:
    """To one place, a half up as a table rounds (1.25 buys a game → 1.3), not to even."""
    return str(Decimal(repr(number)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def score(points: int | None) -> str:
    return "—" if points is None else minus(points)


def record_figures(
    record: Mapping[str, Any],
    ruleset: Ruleset | None,
    rating: Mapping[str, Any] | None,
    versus_url: Callable[[str], str],
) -> list[Figure]:
    """The figures of the record, in the page's order; money only for the penny games; none for a
    season without a finished game."""
    if not record["games"]:
        return []
    word = ruleset.round_word if ruleset else "round"
    rounds = record.get("rounds")
    figures = [
        Figure("Games", str(record["games"])),
        Figure("Wins", str(record["wins"]), f"({round(record['win_rate'] * 100)}%)"),
        Figure("Longest winning streak", plural(record["longest_streak"], "game")),
    ]
    if not ruleset or ruleset.is_penny_game:
        figures.append(Figure("Money", signed_cents(record["money_cents"]), tone=tone(record["money_cents"])))
    figures.append(
        Figure("Went out", plural(record["went_out"], "time"), f"in {plural(rounds, word)}" if rounds else "")
    )
    figures.append(Figure("Buys a game", one_place(record["buys_per_game"])))
    if record.get("points_per_round") is not None:
        figures.append(Figure(f"Points a {word}", one_place(record["points_per_round"])))
    if record.get("best_round") is not None:
        figures.append(Figure(f"Best {word}", minus(record["best_round"])))
        figures.append(Figure(f"Worst {word}", minus(record["worst_round"])))
    if hardest := record.get("hardest_round"):
        contract = f" ({hardest['contract']})" if hardest["contract"] else ""
        caught = f"{plural(hardest['cards'], 'card')} caught in {plural(hardest['times'], 'game')}"
        figures.append(Figure("Hardest contract", f"{word.capitalize()} {hardest['round']}{contract}: {caught}"))
    for term, key in (("Toughest opponent", "toughest_opponent"), ("Favourite victim", "favourite_victim")):
        if name := record.get(key):
            figures.append(Figure(term, name, link=versus_url(name)))
    if rating and not rating["left_out"]:
        counting = "" if rating["up_to_date"] else "; the latest games are being counted"
        spread = f"± {one_place(2 * rating['sigma'])} after {plural(rating['games'], 'rated game')}{counting}"
        figures.append(Figure("Rating (every game)", one_place(rating["mu"]), spread))
    return figures


def ruleset_summary(stats: StatsRow, ruleset: Ruleset | None) -> str:
    """A ruleset's finished games added up, after its name: "3 finished games, 2 won, money +$0.42,
    4.0 points a round. Best round 0, worst 14 (fewer points is better)." """
    word = ruleset.round_word if ruleset else "round"
    winner = ruleset.winner if ruleset else Winner.LOWEST  # a ruleset no longer installed: read as penny games are
    money = f", money {signed_cents(stats['money'])}" if not ruleset or ruleset.is_penny_game else ""
    points = one_place(stats["points"] / stats["rounds"]) if stats["rounds"] else "—"
    best = score(winner.best_of(stats["lowest_round"], stats["highest_round"]))
    worst = score(winner.worst_of(stats["lowest_round"], stats["highest_round"]))
    return (
        f"{plural(stats['games'], 'finished game')}, {stats['wins']} won{money}, {points} points a {word}. "
        f"Best {word} {best}, worst {worst} ({winner.better})."
    )


def game_words(game: HistoryRow, ruleset: Ruleset | None) -> str:
    """A game in the player's list, after its number: "Ten Pennies · 2026-11-26 · 28 points in 7
    rounds · won · +$0.28" (no money for a game played for no money)."""
    name = ruleset.name if ruleset else game["ruleset"]
    word = ruleset.round_word if ruleset else "round"
    parts = [
        name,
        game["day"] or local_day(game["created_at"]),
        f"{plural(game['points'], 'point')} in {plural(game['rounds'], word)}",
    ]
    if not game["finished"]:
        parts.append("in progress")
    else:
        parts.append("won" if game["won"] else "lost")
        if not ruleset or ruleset.is_penny_game:
            parts.append(signed_cents(game["money"]))
    return " · ".join(parts)


@dataclass(frozen=True)
class Line:
    """A line of the page's lists: what it names (a ruleset, a game's number) and its words."""

    name: str
    words: str
    game_id: int = 0


def ruleset_lines(stats: list[StatsRow], rulesets: Mapping[str, Ruleset]) -> list[Line]:
    lines = []
    for row in stats:
        ruleset = rulesets.get(row["ruleset"])
        lines.append(Line(ruleset.name if ruleset else row["ruleset"], ruleset_summary(row, ruleset)))
    return lines


def game_lines(games: list[HistoryRow], rulesets: Mapping[str, Ruleset]) -> list[Line]:
    return [Line(f"Game {g['game_id']}", game_words(g, rulesets.get(g["ruleset"])), g["game_id"]) for g in games]
