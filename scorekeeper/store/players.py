"""Players' records as the pages read them: a player, their history and stats, the leaderboard."""

from __future__ import annotations

from typing import cast

from ..rules.setup import name_key
from .base import StoreBase
from .rows import HistoryRow, LeaderRow, PlayerRow, StatsRow

# Each player's all-time tally per ruleset (ruleset "" is every ruleset), read through their own little
# index (the planner, knowing no sizes, would walk every period of a player instead).
ALL_TIME = "player_days INDEXED BY player_days_all_time"
ALL_TIME_PER_RULESET = "period = 'A' AND ruleset != ''"
TOTALS = "games, wins, points, rounds, money, lowest_round, highest_round"


class PlayerTables(StoreBase):
    """A player's rows and the leaderboard."""

    def player(self, player_id: int) -> PlayerRow:
        row = self._one("SELECT id, name FROM players WHERE id = ?", [player_id], f"there is no player {player_id}")
        return cast(PlayerRow, row)

    def player_id(self, name: str) -> int | None:
        found = self._value("SELECT id FROM players WHERE name_key = ?", [name_key(name)])
        return None if found is None else int(found)

    def player_history(self, player_id: int, limit: int = 20, before: int | None = None) -> list[HistoryRow]:
        """A player's games, newest first, a page at a time (``before``: the last game id of the page before)."""
        rows = self._rows(
            """SELECT r.*, g.ruleset, g.created_at, g.night_id, gp.name
               FROM results r JOIN games g ON g.id = r.game_id
               JOIN game_players gp ON gp.game_id = r.game_id AND gp.seat = r.seat
               WHERE r.player_id = ? AND r.game_id < ? ORDER BY r.game_id DESC LIMIT ?""",
            [player_id, before if before is not None else 2**62, limit],
        )
        return cast(list[HistoryRow], rows)

    def player_stats(self, player_id: int) -> list[StatsRow]:
        """A player's finished games added up, one row per ruleset."""
        rows = self._rows(
            f"SELECT player_id, ruleset, {TOTALS} FROM {ALL_TIME} WHERE player_id = ? AND {ALL_TIME_PER_RULESET}"
            " ORDER BY ruleset",
            [player_id],
        )
        return cast(list[StatsRow], rows)

    def leaderboard(self, limit: int = 200) -> list[LeaderRow]:
        """Per ruleset and player over every finished game: games, wins, points, money, best and worst round."""
        rows = self._rows(
            f"""SELECT p.id, p.name, ruleset, {TOTALS} FROM player_days s INDEXED BY player_days_all_time
                JOIN players p ON p.id = s.player_id
                WHERE {ALL_TIME_PER_RULESET} ORDER BY ruleset, wins DESC, money DESC, p.name_key LIMIT ?""",
            [limit],
        )
        return cast(list[LeaderRow], rows)

    # --- the host's corrections -----------------------------------------------------------

    def rename_player(self, player_id: int, name: str) -> None:
        """The player's name everywhere the records show it (a game's scorepad keeps the name as it
        was entered that night). The caller checked the name is free."""
        self.player(player_id)  # NotFound for a player who is not there
        with self.writing():
            self.db.execute("UPDATE players SET name = ?, name_key = ? WHERE id = ?", [name, name_key(name), player_id])

    def games_together(self, one: int, other: int) -> list[int]:
        """The games both players have a seat in (one person never has two seats)."""
        rows = self.db.execute(
            "SELECT game_id FROM game_players WHERE player_id = ? INTERSECT "
            "SELECT game_id FROM game_players WHERE player_id = ? ORDER BY game_id",
            [one, other],
        )
        return [int(row[0]) for row in rows]

    def move_player(self, gone: int, into: int) -> list[int]:
        """Every seat and result of ``gone`` given to ``into``, then ``gone`` and its derived rows
        deleted; returns the players whose records must be added up again (everyone who met either).
        Inside the caller's write."""
        met = self.db.execute(
            "SELECT DISTINCT player_id FROM game_players WHERE game_id IN "
            "(SELECT game_id FROM game_players WHERE player_id IN (?, ?))",
            [gone, into],
        )
        affected = sorted({int(row[0]) for row in met} - {gone})
        self.db.execute("UPDATE game_players SET player_id = ? WHERE player_id = ?", [into, gone])
        self.db.execute("UPDATE results SET player_id = ? WHERE player_id = ?", [into, gone])
        self.db.execute("DELETE FROM player_days WHERE player_id = ?", [gone])
        self.db.execute("DELETE FROM pair_days WHERE player_id = ? OR other_id = ?", [gone, gone])
        self.db.execute("DELETE FROM ratings WHERE player_id = ?", [gone])
        self.db.execute("DELETE FROM players WHERE id = ?", [gone])
        return affected
