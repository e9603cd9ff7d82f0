"""The rulesets' SQL: each ruleset a game was played under, kept as a numbered version of its
document (a house ruleset made in the app is kept only here)."""

from __future__ import annotations

import hashlib
import json
from typing import Any, TypedDict, cast

from .base import StoreBase, now
from .rows import GameRow, NightRow


class RulesetVersionRow(TypedDict):
    ruleset: str
    version: int
    document: str  # JSON: what ``rules.rulesets.read_ruleset`` reads
    digest: str
    house: int  # 1: made in the app (it has no file)
    made_at: str


def document_text(document: dict[str, Any]) -> str:
    """One text per document, whatever the order its keys came in: equal documents, equal digests."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest_of(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class RulesetTables(StoreBase):
    """The kept versions of every ruleset games were played under, and the house rulesets."""

    def keep_ruleset(self, ruleset_id: str, document: dict[str, Any], house: bool = False) -> int:
        """The version of ``ruleset_id`` whose document this is (a game started under it plays that
        version): the newest one kept with this very document, else a new version (a changed file, a
        new release's rules, an imported ruleset: ``house`` if it was made in an app)."""
        text = document_text(document)
        digest = digest_of(text)
        with self.writing():
            found = self._value(
                "SELECT max(version) FROM ruleset_versions WHERE ruleset = ? AND digest = ?", [ruleset_id, digest]
            )
            if found is not None:
                return int(found)
            return self._add_version(ruleset_id, text, digest, house)

    def save_house_ruleset(self, ruleset_id: str, document: dict[str, Any]) -> int:
        """A house ruleset saved from the app: its next version (the same document as its latest
        is that version: a second tap saves nothing new)."""
        text = document_text(document)
        digest = digest_of(text)
        with self.writing():
            latest = self._rows(
                "SELECT version, digest FROM ruleset_versions WHERE ruleset = ? ORDER BY version DESC LIMIT 1",
                [ruleset_id],
            )
            if latest and latest[0]["digest"] == digest:
                return int(latest[0]["version"])
            return self._add_version(ruleset_id, text, digest, house=True)

    def _add_version(self, ruleset_id: str, text: str, digest: str, house: bool) -> int:
        latest = self._value("SELECT max(version) FROM ruleset_versions WHERE ruleset = ?", [ruleset_id])
        version = 1 if latest is None else int(latest) + 1
        self.table("ruleset_versions").insert(
            {
                "ruleset": ruleset_id,
                "version": version,
                "document": text,
                "digest": digest,
                "house": int(house),
                "made_at": now(),
            }
        )
        return version

    def ruleset_version(self, ruleset_id: str, version: int) -> RulesetVersionRow | None:
        rows = self._rows("SELECT * FROM ruleset_versions WHERE ruleset = ? AND version = ?", [ruleset_id, version])
        return cast(RulesetVersionRow, rows[0]) if rows else None

    def locked_players_of(self, ruleset_id: str) -> tuple[list[NightRow], list[GameRow]]:
        """The open nights under a PIN with a game of this ruleset (their next game starts with it),
        and the unfinished games outside any night under a PIN of their own that play it."""
        nights = self._rows(
            """SELECT * FROM nights n WHERE n.pin_hash IS NOT NULL AND n.closed_at IS NULL
               AND EXISTS (SELECT 1 FROM games g WHERE g.night_id = n.id AND g.ruleset = ?) ORDER BY n.id""",
            [ruleset_id],
        )
        games = self._rows(
            """SELECT * FROM games g WHERE g.pin_hash IS NOT NULL AND g.night_id IS NULL AND g.ruleset = ?
               AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id AND r.finished = 1) ORDER BY g.id""",
            [ruleset_id],
        )
        return cast(list[NightRow], nights), cast(list[GameRow], games)

    def latest_house_version(self, ruleset_id: str) -> int | None:
        """The newest version saved as house rules (the one the house-rules form is drawn from); a game
        started under a house ruleset may keep later versions that are not house saves."""
        found = self._value("SELECT max(version) FROM ruleset_versions WHERE ruleset = ? AND house = 1", [ruleset_id])
        return None if found is None else int(found)

    def ruleset_digests(self, ruleset_id: str) -> dict[int, str]:
        """Each version kept of a ruleset here, and its document's digest."""
        rows = self.db.execute("SELECT version, digest FROM ruleset_versions WHERE ruleset = ?", [ruleset_id])
        return {int(version): str(digest) for version, digest in rows}

    def ruleset_ids(self) -> set[str]:
        """Every ruleset id a version was kept of (an id once used is never given to another)."""
        return {str(row[0]) for row in self.db.execute("SELECT DISTINCT ruleset FROM ruleset_versions")}

    def latest_ruleset_version(self, ruleset_id: str) -> int | None:
        found = self._value("SELECT max(version) FROM ruleset_versions WHERE ruleset = ?", [ruleset_id])
        return None if found is None else int(found)

    def house_rulesets(self) -> list[RulesetVersionRow]:
        """The latest version of every ruleset made in the app, oldest first."""
        rows = self._rows(
            """SELECT v.* FROM ruleset_versions v
               WHERE v.house = 1 AND v.version = (SELECT max(version) FROM ruleset_versions WHERE ruleset = v.ruleset)
               ORDER BY v.made_at, v.ruleset"""
        )
        return cast(list[RulesetVersionRow], rows)

    def house_rulesets_mark(self) -> tuple[int, int]:
        """What moves whenever a house ruleset is saved: how the app knows its list is current."""
        row = self.db.execute("SELECT count(*), coalesce(max(rowid), 0) FROM ruleset_versions WHERE house = 1")
        count, last = row.fetchone()
        return int(count), int(last)

    def pin_unpinned_games(self, versions: dict[str, int]) -> int:
        """Games from before versions were kept play their ruleset's version given here (the rules as
        they are at the upgrade); how many were pinned. A ruleset not given is left unpinned."""
        pinned = 0
        with self.writing():
            for ruleset_id, version in versions.items():
                cursor = self.db.execute(
                    "UPDATE games SET ruleset_version = ? WHERE ruleset = ? AND ruleset_version IS NULL",
                    [version, ruleset_id],
                )
                pinned += cursor.rowcount
        return pinned
