"""Entries recorded once (form entry keys, API Idempotency-Keys), players' drafts, and the games
whose results must be worked out again."""

from __future__ import annotations

from typing import cast

from .base import StoreBase, now
from .rows import DraftRoundRow, DraftRow, EntryKeyRow


class EntryTables(StoreBase):
    """Entry keys, drafts and stale results."""

    # --- entries recorded once (form entry keys, API Idempotency-Keys) -------------------------

    def answer_for(self, key: str) -> EntryKeyRow | None:
        rows = self._rows("SELECT key, game_id, digest, status, body FROM entry_keys WHERE key = ?", [key])
        return cast(EntryKeyRow, rows[0]) if rows else None

    def remember_answer(self, key: str, game_id: int | None, digest: str, status: int, body: str) -> None:
        self.db.execute(
            "INSERT INTO entry_keys (key, game_id, digest, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            [key, game_id, digest, status, body, now()],
        )

    # --- drafts: hands entered on players' own phones (never entries) ----------------------------

    def keep_draft(self, game_id: int, number: int, player: str, cards: str | None, points: int | None) -> None:
        self.table("drafts").upsert(
            {
                "game_id": game_id,
                "round": number,
                "player": player,
                "cards": cards,
                "points": points,
                "updated_at": now(),
            },
            pk=("game_id", "round", "player"),
        )

    def drafts(self, game_id: int, number: int) -> list[DraftRow]:
        sql = "SELECT player, cards, points, updated_at FROM drafts WHERE game_id = ? AND round = ? ORDER BY player"
        return cast(list[DraftRow], self._rows(sql, [game_id, number]))

    def clear_drafts(self, game_id: int, rounds: list[int], beyond: int) -> None:
        """The drafts of ``rounds``, and of every round after ``beyond`` (not begun: left by an undo)."""
        marks = ", ".join("?" * len(rounds))
        self.db.execute(
            f"DELETE FROM drafts WHERE game_id = ? AND (round > ? OR round IN ({marks}))", [game_id, beyond, *rounds]
        )

    def drop_draft(self, game_id: int, number: int, player: str) -> None:
        self.db.execute("DELETE FROM drafts WHERE game_id = ? AND round = ? AND player = ?", [game_id, number, player])

    def correction_requests(self, game_id: int, played: int) -> list[DraftRoundRow]:
        """The drafts of rounds already saved: hands a phone sent to correct them."""
        sql = (
            "SELECT round, player, cards, points, updated_at FROM drafts WHERE game_id = ? AND round <= ? "
            "ORDER BY round, player"
        )
        return cast(list[DraftRoundRow], self._rows(sql, [game_id, played]))

    # --- nights whose carries must be worked out again (after an upgrade or an import) ---------

    def stale_results(self) -> list[int]:
        return [int(r[0]) for r in self.db.execute("SELECT game_id FROM stale_results ORDER BY game_id")]

    def results_refreshed(self, game_id: int) -> None:
        self.db.execute("DELETE FROM stale_results WHERE game_id = ?", [game_id])

    def stale_nights(self) -> list[int]:
        return [int(r[0]) for r in self.db.execute("SELECT night_id FROM stale_nights ORDER BY night_id")]

    def mark_night_stale(self, night_id: int) -> None:
        self.db.execute("INSERT OR IGNORE INTO stale_nights (night_id) VALUES (?)", [night_id])

    def night_refreshed(self, night_id: int) -> None:
        self.db.execute("DELETE FROM stale_nights WHERE night_id = ?", [night_id])
