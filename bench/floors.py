"""Honest floors for the server's pages and saves (issue 45), in one process (no network, no load):
a page's request against rendering its own template from the context the view built (what the view
adds: loading the game, replaying it, the session, the headers), and a round's save against SQLite
writing and committing the very rows that save wrote (what the app adds: parsing, the rules, the
records, the redirect). The old rows compare with a trivial route, which does none of that work."""

from __future__ import annotations

import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from flask import render_template, template_rendered

from tests.support import PLAYERS8, eight_player_round, make_app

from .common import Row, finished_game_in_process, ms

REPEATS = 51


def cpu_median(fn: Any, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return sorted(times)[len(times) // 2]


def page_against_its_template(rows: list[Row]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = make_app(Path(folder), TESTING=False)
        client = app.test_client()
        gid = finished_game_in_process(client)
        url = f"/games/{gid}"
        seen: list[tuple[str, dict[str, Any]]] = []

        def keep(sender: Any, template: Any, context: dict[str, Any], **extra: Any) -> None:
            seen.append((template.name, dict(context)))

        with template_rendered.connected_to(keep, app):
            assert client.get(url).status_code == 200
        name, context = seen[0]
        # In pairs, the template then the request: a shared machine's slow spells slow both sides of
        # a pair, not one side of the whole run; the ratio is the median of the pairs'.
        pairs = []
        for _ in range(REPEATS):
            with app.test_request_context(url):
                template_time = cpu_median(lambda: render_template(name, **context), 1)
            pairs.append((cpu_median(lambda: client.get(url), 1), template_time))
    request = sorted(pair[0] for pair in pairs)[REPEATS // 2]
    template_only = sorted(pair[1] for pair in pairs)[REPEATS // 2]
    ratio = sorted(pair[0] / pair[1] for pair in pairs)[REPEATS // 2]
    rows.append(
        Row(
            "Game page, 8-player finished game: the request against its template alone (CPU, in process)",
            ms(request),
            f"game.html rendered from the view's context {ms(template_only)}",
            ratio,
            "≤ 1.5×",
            ratio <= 1.5,
        )
    )


SAVES = 31
Rows = dict[str, dict[tuple[Any, ...], tuple[Any, ...]]]


def tables_of(path: str) -> dict[str, tuple[list[str], list[str]]]:
    """Each table's columns and the columns that name a row (its primary key, else its rowid)."""
    with sqlite3.connect(path) as conn:
        names = [name for (name,) in conn.execute("select name from sqlite_master where type = 'table'")]
        found = {}
        for name in names:
            if name.startswith("sqlite_"):
                continue
            info = conn.execute(f"pragma table_info([{name}])").fetchall()
            key = [column[1] for column in sorted(info, key=lambda column: column[5]) if column[5]]
            found[name] = ([column[1] for column in info], key or ["rowid"])
        return found


def every_row(path: str, tables: dict[str, tuple[list[str], list[str]]]) -> Rows:
    """Every row of every table of the database at ``path``, by table and the row's key."""
    with sqlite3.connect(path) as conn:
        found: Rows = {}
        for name, (columns, key) in tables.items():
            listed = ", ".join(f"[{column}]" for column in key + columns)
            rows = conn.execute(f"select {listed} from [{name}]")
            found[name] = {row[: len(key)]: row[len(key) :] for row in rows}
        return found


def writes_between(
    before: Rows, after: Rows, tables: dict[str, tuple[list[str], list[str]]]
) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements that turn ``before`` into ``after``: the rows a save inserted, changed, deleted."""
    statements: list[tuple[str, tuple[Any, ...]]] = []
    for table, rows in after.items():
        columns, key = tables[table]
        named = " and ".join(f"[{column}] = ?" for column in key)
        old = before.get(table, {})
        for row_key, values in rows.items():
            if row_key not in old:
                listed = ", ".join(f"[{column}]" for column in columns)
                marks = ", ".join("?" * len(columns))
                statements.append((f"insert into [{table}] ({listed}) values ({marks})", values))
            elif old[row_key] != values:
                sets = ", ".join(f"[{column}] = ?" for column in columns)
                statements.append((f"update [{table}] set {sets} where {named}", (*values, *row_key)))
        statements += [(f"delete from [{table}] where {named}", row_key) for row_key in old if row_key not in rows]
    return statements


def copied(source: str, target: Path) -> str:
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    return str(target)


def committed(path: str, statements: list[tuple[str, tuple[Any, ...]]]) -> float:
    """CPU time of SQLite writing ``statements`` in one transaction and committing, set up as the
    store sets up its connections (WAL, synchronous NORMAL, foreign keys)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("pragma journal_mode = wal")
    conn.execute("pragma synchronous = normal")
    conn.execute("pragma foreign_keys = on")
    start = time.process_time()
    conn.execute("begin immediate")
    for sql, values in statements:
        conn.execute(sql, values)
    conn.execute("commit")
    spent = time.process_time() - start
    conn.close()
    return spent


def save_against_its_rows(rows: list[Row]) -> None:
    """Round 4 of an 8-player game saved (7 caught hands), through the API, against SQLite committing
    the rows that save wrote, on a copy of the database as it was just before."""
    with tempfile.TemporaryDirectory() as folder:
        app = make_app(Path(folder) / "app", TESTING=False)
        client = app.test_client()
        path = app.config["DATABASE"]
        games = []
        for _ in range(SAVES + 1):
            gid = client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS8}).get_json()["id"]
            for number in range(3):
                client.post(f"/api/games/{gid}/rounds", json=eight_player_round(number))
            games.append(gid)
        before = copied(path, Path(folder) / "before.sqlite")
        assert client.post(f"/api/games/{games[0]}/rounds", json=eight_player_round(3)).status_code == 201
        tables = tables_of(path)
        statements = writes_between(every_row(before, tables), every_row(path, tables), tables)
        saves = []
        for gid in games[1:]:
            start = time.process_time()
            client.post(f"/api/games/{gid}/rounds", json=eight_player_round(3))
            saves.append(time.process_time() - start)
        floors = [committed(copied(before, Path(folder) / f"floor-{n}.sqlite"), statements) for n in range(SAVES)]
    save, floor = sorted(saves)[SAVES // 2], sorted(floors)[SAVES // 2]
    rows.append(
        Row(
            "Round save, 8 players (7 caught hands): the request against SQLite committing the rows it wrote "
            "(CPU, in process)",
            ms(save),
            f"the same {len(statements)} rows written and committed {ms(floor)}",
            save / floor,
            "≤ 1.5×",
            save / floor <= 1.5,
        )
    )


if __name__ == "__main__":
    found: list[Row] = []
    page_against_its_template(found)
    save_against_its_rows(found)
    for row in found:
        print(row)
