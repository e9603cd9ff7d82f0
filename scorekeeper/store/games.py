"""The games' SQL: players' names, games and their seats, the append-only events, the derived results."""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from typing import Any, cast

from ..rules.setup import name_key
from .base import GAME_DAY_SQL, SHOWN_FROM, SHOWN_VERSION, NotFound, StaleWrite, StoreBase, new_id, now, result_values
from .rows import RESULT_COLUMNS, EventRow, GameListRow, GameRow, ResultRow, SeatRow


def event_row(entry: tuple[int, str, str, str]) -> EventRow:
    event_id, kind, payload, created_at = entry
    return {"id": event_id, "kind": kind, "payload": json.loads(payload), "created_at": created_at}


class GameTables(StoreBase):
    """Players, games, events and each game's derived results."""

    # --- players ------------------------------------------------------------------------

    def ensure_player(self, name: str) -> int:
        """The identity of a player across games: the same name, ignoring case."""
        key = name_key(name)
        found = self._value("SELECT id FROM players WHERE name_key = ?", [key])
        if found is not None:
            return int(found)
        return new_id(self.table("players").insert({"name": name, "name_key": key}))

    def players_of_games(self, game_ids: Sequence[int]) -> list[int]:
        """Everyone seated in any of these games, each once."""
        rows = self.db.execute(
            "SELECT DISTINCT player_id FROM game_players WHERE game_id IN (SELECT value FROM json_each(?))"
            " ORDER BY player_id",
            [json.dumps(list(game_ids))],
        )
        return [int(row[0]) for row in rows]

    def known_players(self) -> list[str]:
        return [str(row[0]) for row in self.db.execute("SELECT name FROM players ORDER BY name_key")]

    # --- games --------------------------------------------------------------------------

    def create_game(
        self,
        ruleset: str,
        ruleset_version: int,
        players: list[str],
        first_dealer: int,
        penny_cents: int,
        sides: list[int] | None = None,
        night_id: int | None = None,
        pin_hash: str | None = None,
        carry_in: int = 0,
        rematch_of: int | None = None,
    ) -> int:
        """One game and its seats in one transaction; ``sides[seat]`` is the side each seat plays for."""
        with self.writing():
            game_id = new_id(
                self.table("games").insert(
                    {
                        "ruleset": ruleset,
                        "ruleset_version": ruleset_version,
                        "created_at": now(),
                        "first_dealer": first_dealer,
                        "penny_cents": penny_cents,
                        "carry_in": carry_in,
                        "revision": 0,
                        "night_id": night_id,
                        "share_token": secrets.token_urlsafe(16),
                        "pin_hash": pin_hash,
                        "rematch_of": rematch_of,
                    }
                )
            )
            self.table("game_players").insert_all(
                {
                    "game_id": game_id,
                    "seat": seat,
                    "name": name,
                    "player_id": self.ensure_player(name),
                    "side": sides[seat] if sides else seat,
                }
                for seat, name in enumerate(players)
            )
        return game_id

    def game_day(self, game_id: int) -> str | None:
        """The day a game counts on (its night's first, else its own), on the server's clock."""
        day = self._value(GAME_DAY_SQL, [game_id])
        return None if day is None else str(day)

    def game(self, game_id: int) -> GameRow:
        row = self._one(
            """SELECT g.*, v.document AS ruleset_document FROM games g LEFT JOIN ruleset_versions v
                 ON v.ruleset = g.ruleset AND v.version = g.ruleset_version WHERE g.id = ?""",
            [game_id],
            f"there is no game {game_id}",
        )
        seats = self.seats(game_id)
        row["players"] = [seat["name"] for seat in seats]
        sides: dict[int, list[str]] = {}
        for seat in seats:
            sides.setdefault(seat["side"], []).append(seat["name"])
        row["sides"] = [names for _, names in sorted(sides.items())]
        return cast(GameRow, row)

    def rematch_of(self, game_id: int) -> int | None:
        """The game started as the rematch of ``game_id``, if one was."""
        found = self._value("SELECT id FROM games WHERE rematch_of = ?", [game_id])
        return None if found is None else int(found)

    def night_of(self, game_id: int) -> int | None:
        found = self._value("SELECT night_id FROM games WHERE id = ?", [game_id])
        return None if found is None else int(found)

    def seats(self, game_id: int) -> list[SeatRow]:
        rows = self._rows("SELECT seat, name, side FROM game_players WHERE game_id = ? ORDER BY seat", [game_id])
        return cast(list[SeatRow], rows)

    def games_of_players(self, player_ids: Sequence[int]) -> list[int]:
        """Every game any of these players has a seat in."""
        rows = self.db.execute(
            "SELECT DISTINCT game_id FROM game_players WHERE player_id IN (SELECT value FROM json_each(?))"
            " ORDER BY game_id",
            [json.dumps(list(player_ids))],
        )
        return [int(row[0]) for row in rows]

    def seat_players(self, game_id: int) -> dict[int, str]:
        """Each seat's player as the records name them now (a rename or a merge since the game)."""
        rows = self.db.execute(
            "SELECT gp.seat, p.name FROM game_players gp JOIN players p ON p.id = gp.player_id WHERE gp.game_id = ?",
            [game_id],
        )
        return {int(seat): str(name) for seat, name in rows}

    def games(self, limit: int = 50) -> list[GameListRow]:
        rows = self._rows(
            """SELECT g.id, g.ruleset, g.created_at,
                      (SELECT group_concat(name, ', ') FROM
                         (SELECT name FROM game_players WHERE game_id = g.id ORDER BY seat)) AS players
               FROM games g ORDER BY g.id DESC LIMIT ?""",
            [limit],
        )
        return cast(list[GameListRow], rows)

    def shown_version_by_share_token(self, token: str) -> tuple[int, int]:
        """(game id, shown version) behind a share link: what the live view polls, one indexed read."""
        found = self._rows(f"SELECT g.id, {SHOWN_VERSION} AS shown {SHOWN_FROM} WHERE g.share_token = ?", [token])
        if not found:
            raise NotFound("there is no game behind that link")
        return int(found[0]["id"]), int(found[0]["shown"])

    def shown_version(self, game_id: int) -> int:
        """What the live and table views show changes when this does: the game's version, or a note
        on the game or its night. One indexed read."""
        found = self._value(f"SELECT {SHOWN_VERSION} {SHOWN_FROM} WHERE g.id = ?", [game_id])
        if found is None:
            raise NotFound(f"there is no game {game_id}")
        return int(found)

    def replace_notes(self, kind: str, row_id: int, notes: str, seen_edits: int) -> bool:
        """Keep ``notes`` as the note of a game or a night, unless the note was edited since the
        editor saw it (after ``seen_edits`` edits): then False and nothing is written. The same
        note sent again (a second tap) is no new edit."""
        table = {"game": "games", "night": "nights"}[kind]
        with self.writing():
            current = self._one(
                f"SELECT notes, notes_edits FROM {table} WHERE id = ?", [row_id], f"there is no {kind} {row_id}"
            )
            if current["notes"] == notes:
                return True
            if current["notes_edits"] != seen_edits:
                return False
            self.db.execute(
                f"UPDATE {table} SET notes = ?, notes_edits = notes_edits + 1 WHERE id = ?", [notes, row_id]
            )
            return True

    def set_carry(self, game_id: int, carry_in: int) -> None:
        """A new carry-in changes the game's money: it is a new version of the game."""
        self.db.execute("UPDATE games SET carry_in = ?, revision = revision + 1 WHERE id = ?", [carry_in, game_id])

    def keep_money_at_end(self, game_id: int, seat_cents: Sequence[int]) -> None:
        """Each seat's money when the game first ended: what later corrections are measured against
        (kept once; a correction never rewrites it)."""
        self.db.execute(
            "UPDATE games SET money_at_end = ? WHERE id = ? AND money_at_end IS NULL",
            [json.dumps(list(seat_cents)), game_id],
        )

    # --- events -------------------------------------------------------------------------

    def events(self, game_id: int) -> list[EventRow]:
        return [event_row(entry) for entry in self.event_texts(game_id)]

    def event_texts(self, game_id: int) -> list[tuple[int, str, str, str]]:
        """A game's entries as stored (id, kind, payload as JSON text, created_at), oldest first: what a
        replay is made from, and so what a kept replay is known by."""
        found = self.db.execute(
            "SELECT id, kind, payload, created_at FROM events WHERE game_id = ? ORDER BY id", [game_id]
        ).fetchall()
        return [(int(a), str(b), str(c), str(d)) for a, b, c, d in found]

    def revision(self, game_id: int) -> int:
        """The game's version as stored (read it inside ``writing()`` to act on it)."""
        found = self._value("SELECT revision FROM games WHERE id = ?", [game_id])
        if found is None:
            raise NotFound(f"there is no game {game_id}")
        return int(found)

    def next_event_id(self) -> int:
        """The number the next event will be stored under (to be read inside ``writing()``)."""
        return int(self._value("SELECT coalesce(max(id), 0) + 1 FROM events"))

    def append_event(
        self, game_id: int, kind: str, payload: dict[str, Any], expected_version: int, event_id: int
    ) -> None:
        """Append one event as number ``event_id`` (``next_event_id``), unless the game has moved on
        since ``expected_version``."""
        with self.writing():
            revision = self._value("SELECT revision FROM games WHERE id = ?", [game_id])
            if revision != expected_version:
                raise StaleWrite(expected_version, int(revision))
            self.db.execute(
                "INSERT INTO events (id, game_id, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                [event_id, game_id, kind, json.dumps(payload, sort_keys=True), now()],
            )
            self.db.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", [game_id])

    # --- derived results, nights, players ----------------------------------------------------

    def save_results(self, game_id: int, rows: Sequence[ResultRow]) -> bool:
        """Replace a game's derived per-seat results (the engine computes them); True when the game
        was finished before (what the players' records make of the change: ``record_keeping.keep_game``)."""
        with self.writing():
            was_finished = bool(self._value("SELECT max(finished) FROM results WHERE game_id = ?", [game_id]))
            self.db.execute("DELETE FROM results WHERE game_id = ?", [game_id])
            ids = dict(self.db.execute("SELECT seat, player_id FROM game_players WHERE game_id = ?", [game_id]))
            day = self._value(GAME_DAY_SQL, [game_id])
            self.db.conn.executemany(
                f"INSERT INTO results (game_id, player_id, day, {', '.join(RESULT_COLUMNS)}) "
                f"VALUES (?, ?, ?, {', '.join('?' * len(RESULT_COLUMNS))})",
                [[game_id, ids[row["seat"]], day, *result_values(row)] for row in rows],
            )
        return was_finished
