"""The export format (scorekeeper-export, version 1): what was entered, as plain data, and its import
— every field of an import checked for its type beside the export that writes it."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from ..rules.ledger import MoneyMode
from ..rules.rulesets import Ruleset, RulesetError, read_ruleset, ruleset_document
from .repository import Store, StoreError
from .rows import GameRow, NightRow
from .rulesets import digest_of, document_text


def _items(data: Any, key: str, where: str) -> list[Any]:
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, list):
        raise StoreError(f"{where}: {key!r} must be a list")
    return value


def _fields(data: Any, where: str, kinds: dict[str, Any]) -> dict[str, Any]:
    """Exactly these fields of an imported object, each of its type (``(int, None)``: may be null)."""
    if not isinstance(data, dict):
        raise StoreError(f"{where}: must be an object")
    row: dict[str, Any] = {}
    for key, kind in kinds.items():
        value = data.get(key)
        allowed = kind if isinstance(kind, tuple) else (kind,)
        if value is None and None in allowed:
            row[key] = None
            continue
        types = tuple(k for k in allowed if k is not None)
        if isinstance(value, bool) or not isinstance(value, types):
            raise StoreError(f"{where}: {key!r} must be {' or '.join(k.__name__ for k in types)}, not {value!r:.40}")
        if isinstance(value, int) and not -(2**63) < value < 2**63:
            raise StoreError(f"{where}: {key!r} is out of range")
        row[key] = value
    return row


def _check_date(text: str, where: str) -> None:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise StoreError(f"{where} must be a date and time (ISO 8601), not {text!r:.40}") from None


def _money_mode(night: dict[str, Any]) -> str:
    """How an imported night pays; exports made before nights had a money mode: pennies on the table."""
    try:
        return MoneyMode.parse(night.get("money", MoneyMode.TABLE.value), f"night {night['id']}: 'money'").value
    except ValueError as error:
        raise StoreError(str(error)) from None


def _check_seats(seats: list[dict[str, Any]], game: dict[str, Any], where: str) -> None:
    """Seats 0, 1, … each once, sides numbered from 0 without a gap, the first dealer one of them."""
    numbers = sorted(seat["seat"] for seat in seats)
    if numbers != list(range(len(seats))):
        raise StoreError(f"{where}: the players' seats must be 0 to {len(seats) - 1}, each once, not {numbers}")
    sides = sorted({seat["side"] for seat in seats})
    if sides != list(range(len(sides))):
        raise StoreError(f"{where}: the sides must be numbered 0 to {len(sides) - 1}, not {sides}")
    if not 0 <= game["first_dealer"] < max(len(seats), 1):
        raise StoreError(f"{where}: 'first_dealer' must be a seat (0 to {len(seats) - 1}), not {game['first_dealer']}")


def dump(store: Store, night_id: int | None = None, game_id: int | None = None) -> dict[str, Any]:
    """Everything entered (not what is derived), as plain data: the whole database, a night or a game."""
    if game_id is not None:
        games = [store.game(game_id)]
        first_night = games[0]["night_id"]
        night_ids = [first_night] if first_night else []
    elif night_id is not None:
        night_ids = [store.night(night_id)["id"]]
        games = [store.game(gid) for gid in store.night_game_ids(night_id)]
    else:
        night_ids = [int(r[0]) for r in store.db.execute("SELECT id FROM nights ORDER BY id")]
        games = [store.game(int(r[0])) for r in store.db.execute("SELECT id FROM games ORDER BY id")]
    played_under = {(g["ruleset"], g["ruleset_version"]) for g in games if g["ruleset_version"] is not None}
    if night_id is None and game_id is None:  # the whole house: its rules as they are now travel too
        played_under |= {(row["ruleset"], row["version"]) for row in store.house_rulesets()}
    return {
        "format": "scorekeeper-export",
        "version": 1,
        "rulesets": _rulesets_dump(store, played_under),
        "nights": [_night_dump(store.night(n)) for n in night_ids],
        "games": [_game_dump(store, game) for game in games],
    }


def export_text(store: Store) -> Iterator[str]:
    """The whole database as ``to_json_text(dump(store))`` writes it, byte for byte, a game at a time:
    a house's years of games are written without holding them all (the other parts are small)."""
    yield '{\n "format": "scorekeeper-export",\n "games": ['
    written = 0
    for game_id in _game_ids(store):
        yield ("," if written else "") + "\n  " + _json(_game_dump(store, store.game(game_id)), depth=2)
        written += 1
    yield "\n ]," if written else "],"
    night_ids = [int(row[0]) for row in store.db.execute("SELECT id FROM nights ORDER BY id")]
    played_under = {
        tuple(row)
        for row in store.db.execute(
            "SELECT DISTINCT ruleset, ruleset_version FROM games WHERE ruleset_version IS NOT NULL"
        )
    }
    yield '\n "nights": ' + _json([_night_dump(store.night(n)) for n in night_ids], depth=1) + ","
    yield '\n "rulesets": ' + _json(_rulesets_dump(store, played_under), depth=1) + ","
    yield '\n "version": 1\n}\n'


JSON_LAYOUT: dict[str, Any] = {"sort_keys": True, "indent": 1, "ensure_ascii": False}  # an export's text


def _game_ids(store: Store, page: int = 100) -> Iterator[int]:
    """Every game's id in order, a page at a time (not ten thousand of them at once)."""
    last = -(2**63)  # an imported game may have any id an export allows
    while ids := [
        int(row[0]) for row in store.db.execute("SELECT id FROM games WHERE id > ? ORDER BY id LIMIT ?", [last, page])
    ]:
        yield from ids
        last = ids[-1]


def _json(value: Any, depth: int) -> str:
    """``value`` laid out as in an export, ``depth`` levels down (a string never holds a line break)."""
    return json.dumps(value, **JSON_LAYOUT).replace("\n", "\n" + " " * depth)


def _rulesets_dump(store: Store, played_under: set[tuple[str, int]]) -> list[dict[str, Any]]:
    """The rules each game is played under, as kept: an import scores them the same."""
    dumped = []
    for ruleset_id, version in sorted(played_under):
        row = store.ruleset_version(ruleset_id, version)
        if row is not None:
            dumped.append(
                {
                    "id": ruleset_id,
                    "version": version,
                    "house": bool(row["house"]),
                    "document": json.loads(row["document"]),
                }
            )
    return dumped


def _night_dump(night: NightRow) -> dict[str, Any]:
    """What was entered for a night (never its PIN hash or lock state)."""
    return {key: night[key] for key in ("id", "name", "created_at", "closed_at", "money", "notes")}


def _game_dump(store: Store, game: GameRow) -> dict[str, Any]:
    return {
        "id": game["id"],
        "ruleset": game["ruleset"],
        "ruleset_version": game["ruleset_version"],
        "created_at": game["created_at"],
        "first_dealer": game["first_dealer"],
        "penny_cents": game["penny_cents"],
        "night_id": game["night_id"],
        "notes": game["notes"],
        "players": _seats_dump(store, game["id"]),
        "events": store.events(game["id"]),
    }


def _seats_dump(store: Store, game_id: int) -> list[dict[str, Any]]:
    """Each seat as entered; with ``player`` where the host has since renamed or merged the player it
    counts for ("Bbo" entered that night, counting for Bob), so the records come back the same."""
    counts_for = store.seat_players(game_id)
    return [
        {**seat, "player": counts_for[seat["seat"]]} if counts_for[seat["seat"]] != seat["name"] else dict(seat)
        for seat in store.seats(game_id)
    ]


def load_dump(store: Store, data: dict[str, Any]) -> list[int]:
    """Import an export, keeping its ids, in one transaction; refused if any id is taken.

    Only what an export holds is read (a PIN hash or any other field is never imported), each
    field checked for its type; the nights it brings are marked stale, for the caller to work
    out their carries. The caller replays every game in the same transaction."""
    if not isinstance(data, dict) or data.get("format") != "scorekeeper-export" or data.get("version") != 1:
        raise StoreError("not a Scorekeeper export (format scorekeeper-export, version 1)")
    nights = _items(data, "nights", "the export")
    games = _items(data, "games", "the export")
    with store.writing():
        versions = _load_rulesets(store, data.get("rulesets", []))
        for night in nights:
            row = _fields(
                night,
                "night",
                {"id": int, "name": str, "created_at": str, "closed_at": (str, None), "notes": (str, None)},
            )
            row["notes"] = row["notes"] or ""  # exports made before notes have none
            for key in ("created_at", "closed_at"):
                if row[key] is not None:
                    _check_date(row[key], f"night {row['id']}: {key!r}")
            row["money"] = _money_mode(night)
            if store.has_row("nights", row["id"]):
                raise StoreError(f"night {row['id']} already exists: import into an empty database")
            row["share_token"] = secrets.token_urlsafe(16)  # a link of this instance's own
            store.table("nights").insert(row)
            store.mark_night_stale(row["id"])
        rows = Loaded()
        for game in games:
            _load_game(store, game, versions, rows)
        rows.insert(store)
    return [int(game["id"]) for game in games]


class Loaded:
    """An import's game rows, checked one by one and written table by table in a few statements
    (ten thousand games are forty thousand seats and hundreds of thousands of entries)."""

    def __init__(self) -> None:
        self.tables: dict[str, list[dict[str, Any]]] = {"games": [], "game_players": [], "events": []}
        self.players: dict[str, int] = {}
        self.game_ids: set[int] = set()
        self.entry_ids: set[int] = set()

    def player_id(self, store: Store, name: str) -> int:
        if name not in self.players:
            self.players[name] = store.ensure_player(name)
        return self.players[name]

    def insert(self, store: Store) -> None:
        for table, rows in self.tables.items():
            store.table(table).insert_all(rows, batch_size=500)


def _load_rulesets(store: Store, rulesets: Any) -> dict[tuple[str, int], tuple[str, int]]:
    """The export's rulesets kept here, each read by the rules' own reader first: the ruleset and
    version each is here, by its id and version in the export (an export made before rulesets were
    kept has none). A house ruleset whose id is taken here by other rules (another household's "our
    way") comes in as a copy under an id and a name of its own: an import never changes the rules a
    household plays (issue 58)."""
    if not isinstance(rulesets, list):
        raise StoreError("the export: 'rulesets' must be a list")
    listed: dict[str, dict[int, tuple[Ruleset, bool]]] = {}
    for item in rulesets:
        row = _fields(item, "a ruleset", {"id": str, "version": int, "document": dict})
        house = item.get("house", False)
        if not isinstance(house, bool):
            raise StoreError(f"a ruleset: 'house' must be true or false, not {house!r:.40}")
        where = f"ruleset {row['id']!r} version {row['version']}"
        try:
            ruleset = read_ruleset(row["document"], where)
        except (RulesetError, RecursionError) as error:
            raise StoreError(f"{error}" if isinstance(error, RulesetError) else f"{where}: nested too deeply") from None
        if ruleset.id != row["id"]:
            raise StoreError(f"{where}: its document is the ruleset {ruleset.id!r}")
        twin = listed.setdefault(ruleset.id, {}).get(row["version"])
        if twin is not None and ruleset_document(twin[0]) != ruleset_document(ruleset):
            raise StoreError(f"{where} is listed twice with two different documents: which one is meant?")
        listed[ruleset.id][row["version"]] = (ruleset, house)
    versions: dict[tuple[str, int], tuple[str, int]] = {}
    for ruleset_id, kept in listed.items():
        here = _id_here(store, ruleset_id, kept)
        for version, (ruleset, house) in sorted(kept.items()):
            document = ruleset_document(ruleset)
            if here != ruleset_id:
                document = {**document, "id": here, "name": _imported_name(store, ruleset.name)}
            versions[(ruleset_id, version)] = (here, store.keep_ruleset(here, document, house=house))
    return versions


def _id_here(store: Store, ruleset_id: str, kept: dict[int, tuple[Ruleset, bool]]) -> str:
    """The ruleset's own id, unless it is a house ruleset and a version here of that id holds other
    rules than the export's version of the same number: then a new id (``our-way-imported``)."""
    here = store.ruleset_digests(ruleset_id)
    foreign = any(
        house and version in here and here[version] != digest_of(document_text(ruleset_document(ruleset)))
        for version, (ruleset, house) in kept.items()
    )
    if not foreign:
        return ruleset_id
    taken = store.ruleset_ids()
    found, number = f"{ruleset_id}-imported"[:40], 2
    while found in taken:
        found, number = f"{ruleset_id[:30]}-imported-{number}", number + 1
    return found


def _imported_name(store: Store, name: str) -> str:
    """A copy's name, saying where it came from, and taken by no other ruleset here."""
    names = {json.loads(row["document"])["name"] for row in store.house_rulesets()}
    found, number = f"{name[:45]} (imported)", 2
    while found in names:
        found, number = f"{name[:40]} (imported {number})", number + 1
    return found


def _load_game(store: Store, game: Any, versions: dict[tuple[str, int], tuple[str, int]], loaded: Loaded) -> None:
    row = _fields(
        game,
        "game",
        {
            "id": int,
            "ruleset": str,
            "ruleset_version": (int, None),
            "created_at": str,
            "first_dealer": int,
            "penny_cents": int,
            "night_id": (int, None),
            "notes": (str, None),
        },
    )
    row["notes"] = row["notes"] or ""
    where = f"game {row['id']}"
    _check_date(row["created_at"], f"{where}: 'created_at'")
    if row["id"] in loaded.game_ids or store.has_row("games", row["id"]):
        raise StoreError(f"{where} already exists: import into an empty database")
    loaded.game_ids.add(row["id"])
    if row["night_id"] is not None and not store.has_row("nights", row["night_id"]):
        raise StoreError(f"{where}: night_id {row['night_id']} is not a night of the export")
    if row["ruleset_version"] is not None:  # else: played under the ruleset as it is here now
        kept = versions.get((row["ruleset"], row["ruleset_version"]))
        if kept is None:
            raise StoreError(
                f"{where}: version {row['ruleset_version']} of {row['ruleset']!r} is not a ruleset of the export"
            )
        row["ruleset"], row["ruleset_version"] = kept
    # A new share link; a PIN is never imported, so an imported game starts unlocked.
    loaded.tables["games"].append(
        {
            **row,
            "carry_in": 0,
            "revision": len(_items(game, "events", where)),
            "share_token": secrets.token_urlsafe(16),
        }
    )
    seats = [
        _fields(seat, f"{where}, a player", {"seat": int, "name": str, "side": int, "player": (str, None)})
        for seat in _items(game, "players", where)
    ]
    _check_seats(seats, row, where)
    loaded.tables["game_players"] += [
        {
            "seat": player["seat"],
            "name": player["name"],
            "side": player["side"],
            "game_id": row["id"],
            "player_id": loaded.player_id(store, player["player"] or player["name"]),
        }
        for player in seats
    ]
    for event in _items(game, "events", where):
        entry = _fields(event, f"{where}, an entry", {"id": int, "kind": str, "payload": dict, "created_at": str})
        if entry["id"] in loaded.entry_ids or store.has_row("events", entry["id"]):
            raise StoreError(f"{where}, entry {entry['id']}: that entry number is taken")
        loaded.entry_ids.add(entry["id"])
        payload = json.dumps(entry["payload"], sort_keys=True)
        loaded.tables["events"].append({**entry, "game_id": row["id"], "payload": payload})
