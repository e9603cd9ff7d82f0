"""The SQL of deleting a game or a night and bringing it back (issue 57): what was entered is kept in
``deleted`` (as an export holds it, with what an export leaves out), then every row of it goes; the
caller adds up what it derived again, so the records are as if it had never been played."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from .base import StoreBase, new_id, now
from .rows import DeletedRow

KEPT_DAYS = 30  # a deleted game or night can be brought back for this long at least

GAME_TABLES = ("events", "game_players", "results", "drafts", "entry_keys", "stale_results", "pin_failures")


class DeletedTables(StoreBase):
    def keep_deleted(self, kind: str, object_id: int, label: str, dump: dict[str, Any], kept: dict[str, Any]) -> int:
        """Kept first, before its rows go: the entries of a game kept here are the only ones that may."""
        row = {
            "game_ids": json.dumps([game["id"] for game in dump["games"]]),
            "kind": kind,
            "object_id": object_id,
            "label": label,
            "dump": json.dumps(dump),
            "kept": json.dumps(kept),
            "deleted_at": now(),
        }
        cutoff = (datetime.now(UTC) - timedelta(days=KEPT_DAYS)).isoformat(timespec="seconds")
        self.db.execute("DELETE FROM deleted WHERE deleted_at < ?", [cutoff])  # kept 30 days at least
        return new_id(self.table("deleted").insert(row))

    def deleted(self) -> list[DeletedRow]:
        """What can be brought back, newest first (all kept; the next delete lets the old ones go)."""
        rows = self._rows("SELECT id, kind, object_id, label, deleted_at FROM deleted ORDER BY id DESC", [])
        return cast(list[DeletedRow], rows)

    def take_deleted(self, deleted_id: int) -> tuple[DeletedRow, dict[str, Any], dict[str, Any]]:
        """One deleted game or night (its row gone from ``deleted``: it is coming back)."""
        row = self._one(
            "SELECT id, kind, object_id, label, deleted_at, dump, kept FROM deleted WHERE id = ?",
            [deleted_id],
            f"nothing deleted is kept as {deleted_id}: `scorekeeper deleted` lists what is",
        )
        self.db.execute("DELETE FROM deleted WHERE id = ?", [deleted_id])
        return cast(DeletedRow, row), json.loads(row["dump"]), json.loads(row["kept"])

    def delete_game_rows(self, game_id: int) -> list[int]:
        """Every row of a game gone; returns its players (their records are added up again), and
        players left with no game at all are gone too (a test game's made-up names)."""
        seated = self.db.execute("SELECT player_id FROM game_players WHERE game_id = ?", [game_id])
        players = [int(row[0]) for row in seated]
        for table in GAME_TABLES:
            self.db.execute(f"DELETE FROM {table} WHERE game_id = ?", [game_id])
        self.db.execute("UPDATE games SET rematch_of = NULL WHERE rematch_of = ?", [game_id])
        self.db.execute("DELETE FROM games WHERE id = ?", [game_id])
        for player in players:
            if self._value("SELECT 1 FROM game_players WHERE player_id = ?", [player]) is None:
                for table in ("player_days", "ratings"):
                    self.db.execute(f"DELETE FROM {table} WHERE player_id = ?", [player])
                self.db.execute("DELETE FROM pair_days WHERE player_id = ? OR other_id = ?", [player, player])
                self.db.execute("DELETE FROM players WHERE id = ?", [player])
        return [player for player in players if self._value("SELECT 1 FROM players WHERE id = ?", [player])]

    def payments_of(self, night_id: int) -> list[dict[str, Any]]:
        return self._rows("SELECT * FROM payments WHERE night_id = ?", [night_id])

    def delete_night_row(self, night_id: int) -> None:
        """A night's own rows gone (its games first, by the caller)."""
        for table in ("payments", "stale_nights"):
            self.db.execute(f"DELETE FROM {table} WHERE night_id = ?", [night_id])
        self.db.execute("DELETE FROM nights WHERE id = ?", [night_id])

    def put_back_kept(self, kind: str, object_id: int, kept: dict[str, Any]) -> None:
        """What an export leaves out, back in place: the PIN, and a night's payments."""
        table = {"game": "games", "night": "nights"}[kind]
        self.db.execute(f"UPDATE {table} SET pin_hash = ? WHERE id = ?", [kept.get("pin_hash"), object_id])
        for payment in kept.get("payments", []):
            self.table("payments").insert({**payment, "id": None, "night_id": object_id})

    def free_id(self, table: str) -> int:
        return int(self._value(f"SELECT coalesce(max(id), 0) + 1 FROM {table}", []))


def with_free_ids(store: DeletedTables, data: dict[str, Any]) -> dict[str, Any]:
    """A dump of deleted games and nights, renumbered where a game, night or entry made since took
    its id: those take the next free ids, and the entries move up together (a "void" names its
    target by id: moved with it). Nights that are here already are left out."""
    nights = [night for night in data["nights"] if not store.has_row("nights", night["id"])]
    night_ids = _free_ids(store, "nights", [night["id"] for night in nights])
    game_ids = _free_ids(store, "games", [game["id"] for game in data["games"]])
    entries = [event["id"] for game in data["games"] for event in game["events"]]
    shift = 0
    if any(store.has_row("events", entry) for entry in entries):
        shift = store.free_id("events") - min(entries)
    games = [
        {
            **game,
            "id": game_ids[game["id"]],
            "night_id": night_ids.get(game["night_id"], game["night_id"]),
            "events": [_moved_entry(event, shift) for event in game["events"]],
        }
        for game in data["games"]
    ]
    return {**data, "nights": [{**night, "id": night_ids[night["id"]]} for night in nights], "games": games}


def _free_ids(store: DeletedTables, table: str, wanted: list[int]) -> dict[int, int]:
    """Each wanted id, or where it is taken, one after every id there is and every id wanted."""
    following = max([store.free_id(table), *(number + 1 for number in wanted)])
    given = {}
    for number in wanted:
        given[number] = number
        if store.has_row(table, number):
            given[number], following = following, following + 1
    return given


def _moved_entry(event: dict[str, Any], shift: int) -> dict[str, Any]:
    payload = event["payload"]
    if event["kind"] == "void" and shift:
        payload = {**payload, "target": payload["target"] + shift}
    return {**event, "id": event["id"] + shift, "payload": payload}
