"""The nights' SQL: PIN locks and their tries, nights, money modes and payments, the night a phone follows."""

from __future__ import annotations

import secrets
import time
from typing import Any, cast

from ..rules.ledger import MoneyMode
from ..rules.setup import name_key
from .base import SHOWN_FROM, SHOWN_VERSION, StoreBase, new_id, now
from .rows import LockedRow, NightListRow, NightRow, PaymentRow


class NightTables(StoreBase):
    """Locks, nights and payments."""

    # --- locks ---------------------------------------------------------------------------

    def claim_pin_try(self, lock: str, free_tries: int, base_delay: float) -> tuple[bool, float]:
        """Count one PIN try on ``lock`` (whoever makes it), atomically, in one statement: (may this
        try go ahead, seconds until the next may). Past the free tries each claim makes the next
        wait twice as long as the last, so simultaneous guesses cannot all be checked."""
        now = time.time()
        with self.writing():
            row = self._claim(lock, now, free_tries, base_delay)
        if row is not None:
            return True, max(0.0, float(row[0]) - now)
        blocked_until = self._value("SELECT blocked_until FROM pin_tries WHERE lock = ?", [lock])
        return False, max(0.01, float(blocked_until or 0) - now)

    def _claim(self, lock: str, now: float, free_tries: int, base_delay: float) -> Any:
        return self.db.execute(
            """INSERT INTO pin_tries (lock, tries, blocked_until) VALUES (:lock, 1, :now)
               ON CONFLICT(lock) DO UPDATE SET
                 tries = tries + 1,
                 blocked_until = :now + CASE WHEN tries + 1 > :free
                                   THEN :base * (1 << MIN(tries - :free, 20)) ELSE 0 END
               WHERE blocked_until <= :now
               RETURNING blocked_until""",
            {"lock": lock, "now": now, "free": free_tries, "base": base_delay},
        ).fetchone()

    def pin_succeeded(self, lock: str) -> None:
        with self.writing():
            self.db.execute("DELETE FROM pin_tries WHERE lock = ?", [lock])

    def relock(self, kind: str, row_id: int) -> None:
        """A new lock generation: every unlock given before it (cookies, tokens) ends."""
        table = {"game": "games", "night": "nights"}[kind]
        with self.writing():
            self.db.execute(f"UPDATE {table} SET lock_generation = lock_generation + 1 WHERE id = ?", [row_id])

    def locked(self) -> list[LockedRow]:
        """Every night and game with a PIN of its own, oldest first (a game in a locked night has the
        night's: listed as the night)."""
        rows = self._rows(
            """SELECT 'night' AS kind, n.id, n.name, n.created_at,
                      (SELECT group_concat(g.id) FROM games g WHERE g.night_id = n.id) AS games
               FROM nights n WHERE n.pin_hash IS NOT NULL
               UNION ALL
               SELECT 'game', g.id, g.ruleset, g.created_at,
                      (SELECT group_concat(gp.name, ', ') FROM game_players gp WHERE gp.game_id = g.id)
               FROM games g WHERE g.pin_hash IS NOT NULL
               ORDER BY created_at, kind""",
            [],
        )
        return cast(list[LockedRow], rows)

    def clear_pin(self, kind: str, row_id: int) -> bool:
        """The PIN of a night or game taken off, its tries forgotten and every unlock given before
        ended (a new lock generation); False when it had none."""
        table = {"game": "games", "night": "nights"}[kind]
        with self.writing():
            cleared = self.db.execute(
                f"UPDATE {table} SET pin_hash = NULL, lock_generation = lock_generation + 1"
                " WHERE id = ? AND pin_hash IS NOT NULL",
                [row_id],
            ).rowcount
            self.db.execute("DELETE FROM pin_tries WHERE lock = ?", [f"{kind}:{row_id}"])
        return bool(cleared)

    def lock_night(self, night_id: int, pin_hash: str) -> None:
        with self.writing():
            self.db.execute("UPDATE nights SET pin_hash = ? WHERE id = ? AND pin_hash IS NULL", [pin_hash, night_id])

    def create_night(self, name: str = "", money: MoneyMode = MoneyMode.TABLE) -> int:
        row = {
            "name": name,
            "created_at": now(),
            "closed_at": None,
            "money": money.value,
            "share_token": secrets.token_urlsafe(16),
        }
        with self.writing():
            return new_id(self.table("nights").insert(row))

    def set_money_mode(self, night_id: int, money: MoneyMode) -> None:
        with self.writing():
            self.db.execute("UPDATE nights SET money = ? WHERE id = ?", [money.value, night_id])

    def payments(self, night_id: int) -> list[PaymentRow]:
        """Every payment marked paid in a night, in the order they were made (those taken back with
        "not paid after all" carry ``undone_at``)."""
        rows = self._rows("SELECT * FROM payments WHERE night_id = ? ORDER BY id", [night_id])
        return cast(list[PaymentRow], rows)

    def record_payment(self, night_id: int, payer: str, payee: str, cents: int, nets: str) -> int:
        row = {"night_id": night_id, "payer": payer, "payee": payee, "cents": cents, "made_at": now(), "nets": nets}
        with self.writing():
            return new_id(self.table("payments").insert(row))

    def set_payment_undone(self, night_id: int, payment_id: int, undone: bool) -> bool:
        """Take a payment back ("not paid after all"), or put it back; False if the night has no such payment."""
        with self.writing():
            changed = self.db.execute(
                "UPDATE payments SET undone_at = ? WHERE id = ? AND night_id = ?",
                [now() if undone else None, payment_id, night_id],
            ).rowcount
        return bool(changed)

    def night(self, night_id: int) -> NightRow:
        return cast(
            NightRow, self._one("SELECT * FROM nights WHERE id = ?", [night_id], f"there is no night {night_id}")
        )

    def close_night(self, night_id: int) -> None:
        self.night(night_id)
        self.db.execute("UPDATE nights SET closed_at = ? WHERE id = ? AND closed_at IS NULL", [now(), night_id])

    def nights(self, limit: int = 50) -> list[NightListRow]:
        rows = self._rows(
            """SELECT n.*, (SELECT count(*) FROM games g WHERE g.night_id = n.id) AS games
               FROM nights n ORDER BY n.id DESC LIMIT ?""",
            [limit],
        )
        return cast(list[NightListRow], rows)

    def night_by_share_token(self, token: str) -> NightRow:
        return cast(
            NightRow,
            self._one("SELECT * FROM nights WHERE share_token = ?", [token], "there is no night behind that link"),
        )

    def night_followed(self, night_id: int, player: str | None) -> tuple[int, int] | None:
        """(game id, shown version) of what a phone following the night shows: the night's latest game
        that ``player`` sits in (any, when they sit in none or say nobody); None before the first game.
        One indexed read: every phone at the table asks it every two seconds."""
        sql = f"SELECT g.id, {SHOWN_VERSION} AS shown {SHOWN_FROM} WHERE g.night_id = ? {{seat}} ORDER BY g.id DESC"
        found = []
        if player:
            seat = (
                "AND g.id IN (SELECT p.game_id FROM game_players p JOIN players x ON x.id = p.player_id "
                "WHERE x.name_key = ?)"
            )
            found = self._rows(sql.format(seat=seat) + " LIMIT 1", [night_id, name_key(player)])
        if not found:
            found = self._rows(sql.format(seat="") + " LIMIT 1", [night_id])
        return (int(found[0]["id"]), int(found[0]["shown"])) if found else None

    def open_night(self) -> int | None:
        """The last night not yet closed: where a new game goes by default."""
        found = self._value("SELECT id FROM nights WHERE closed_at IS NULL ORDER BY id DESC LIMIT 1")
        return None if found is None else int(found)

    def night_games_state(self, night_id: int) -> list[tuple[Any, ...]]:
        """Each game of a night as far as its report goes (id first, in order): any entry, carry,
        note or money kept at its end changes these."""
        rows = self.db.execute(
            """SELECT id, revision, carry_in, notes, notes_edits, money_at_end, ruleset, ruleset_version
               FROM games WHERE night_id = ? ORDER BY id""",
            [night_id],
        )
        return [tuple(row) for row in rows]

    def night_game_ids(self, night_id: int, after: int = 0) -> list[int]:
        """The night's games in the order they were started (those after game ``after``)."""
        rows = self.db.execute("SELECT id FROM games WHERE night_id = ? AND id > ? ORDER BY id", [night_id, after])
        return [int(r[0]) for r in rows]
