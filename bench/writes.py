"""Writes against a long history (issue 46): a buy, a save, a draft, a correction, the save that ends a
game, and a night's end."""

from __future__ import annotations

import os
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.support import (
    PLAYERS8,
    eight_player_round,
    make_app,
)

from .common import NIGHT_GAMES, Row, cpu_time, ms
from .history import build_history

HISTORY_PLAYERS = ["Player 00", "Player 01", "Player 02", "Player 03"]  # at the table in every history
ROUND_OF_FOUR = {"went_out": "Player 00", "caught": {"Player 01": "K 7", "Player 02": "5", "Player 03": ""}}
CORRECTED = {**ROUND_OF_FOUR, "caught": {"Player 01": "K 7", "Player 02": "5", "Player 03": "9"}}


def answered(response: Any, status: int) -> None:
    assert response.status_code == status, response.get_data(as_text=True)


def save_round(client: Any, gid: int) -> Callable[[], None]:
    return lambda: answered(client.post(f"/api/games/{gid}/rounds", json=ROUND_OF_FOUR), 201)


def writes_in_play(client: Any, gid: int) -> dict[str, Callable[[], None]]:
    """A buy, a round save, a player's draft and a correction of game ``gid``, in play."""
    return {
        "a buy": lambda: answered(client.post(f"/api/games/{gid}/buys", json={"player": "Player 02"}), 201),
        "a round save": save_round(client, gid),
        "a player's draft": lambda: answered(
            client.put(f"/api/games/{gid}/rounds/2/drafts/Player 01", json={"cards": "K 7"}), 200
        ),
        "a correction": lambda: answered(client.put(f"/api/games/{gid}/rounds/1", json=CORRECTED), 200),
    }


def write_costs(clients: dict[int, Any], games: int = 9) -> dict[int, dict[str, float]]:
    """A buy, a round save, a player's draft and a correction in a game in play, and the save that
    ends it, of four players who sat in every game of each history (the histories in turn, game by
    game): CPU time, medians over ``games``."""
    costs: dict[int, dict[str, list[float]]] = {size: {what: [] for what in WRITES} for size in clients}
    for _ in range(games):
        for size, client in clients.items():
            body = {"ruleset": "ten-pennies", "players": HISTORY_PLAYERS}
            gid = client.post("/api/games", json=body).get_json()["id"]
            writes = writes_in_play(client, gid)
            for what in WRITES[:-1]:
                costs[size][what].append(cpu_time(writes[what]))
            for _ in range(5):
                save_round(client, gid)()
            costs[size][WRITES[-1]].append(cpu_time(save_round(client, gid)))
    return {size: {what: statistics.median(values) for what, values in kept.items()} for size, kept in costs.items()}


WRITES = ["a buy", "a round save", "a player's draft", "a correction", "the save that ends a game"]


def records_size(path: str, games: int) -> tuple[float, float]:
    """The database per 1,000 games, and the players' records' share of it (tables and indexes), in MB."""
    import sqlite3

    with sqlite3.connect(path) as db:
        db.execute("VACUUM")
        pages = dict(db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall())
        kinds = dict(db.execute("SELECT name, tbl_name FROM sqlite_master").fetchall())
    records = sum(size for name, size in pages.items() if kinds.get(name) in ("player_days", "pair_days"))
    per_thousand = 1000 / games / 1e6
    return os.path.getsize(path) * per_thousand, records * per_thousand


def game_played_to_its_last_round(client: Any, body: dict[str, Any]) -> Callable[[], None]:
    """A new game with six rounds saved, and the save of its seventh (the one that ends it), to time."""
    gid = client.post("/api/games", json=body).get_json()["id"]
    for _ in range(6):
        save_round(client, gid)()
    return save_round(client, gid)


def night_end_costs(repeats: int = 9, games: int = 40) -> dict[int, float]:
    """The save that ends the 1st, 20th and 40th game of a night of four players who have played
    before (ten games of an earlier year behind them; each night on a database of its own, so the 1st
    game is the day's first), CPU time, medians over ``repeats`` nights."""
    ends: dict[int, list[float]] = {1: [], 20: [], games: []}
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            build_history(f"{folder}/scorekeeper.sqlite", 10)
            client = make_app(Path(folder), DATABASE=f"{folder}/scorekeeper.sqlite", TESTING=False).test_client()
            night = client.post("/api/nights", json={"name": "long"}).get_json()["id"]
            body = {"ruleset": "ten-pennies", "players": HISTORY_PLAYERS, "night": night}
            for number in range(1, games + 1):
                end = cpu_time(game_played_to_its_last_round(client, body))
                if number in ends:
                    ends[number].append(end)
    return {number: statistics.median(values) for number, values in ends.items()}


def paired_cpu(client: Any, floor: str, measured: str, pairs: int = 51) -> tuple[float, float]:
    """Medians of CPU time of two GETs asked in turn (a busy moment costs both alike)."""
    a, b = [], []
    for _ in range(pairs):
        a.append(cpu_time(lambda: answered(client.get(floor), 200)))
        b.append(cpu_time(lambda: answered(client.get(measured), 200)))
    return statistics.median(a), statistics.median(b)


def night_and_fragment_costs(rows: list[Row]) -> None:
    """The night page and its API with 20 games against 1, and the live fragment a second phone
    fetches at a version already drawn against the trivial route, in CPU time."""
    with tempfile.TemporaryDirectory() as folder:
        client = make_app(Path(folder), TESTING=False).test_client()
        nights = {}
        for count in (1, NIGHT_GAMES):
            night = client.post("/api/nights", json={"name": f"{count}"}).get_json()["id"]
            for _ in range(count):
                body = {"ruleset": "ten-pennies", "players": PLAYERS8, "night": night}
                gid = client.post("/api/games", json=body).get_json()["id"]
                for i in range(7):
                    answered(client.post(f"/api/games/{gid}/rounds", json=eight_player_round(i)), 201)
            nights[count] = night
        for what, path in (("night page", "/nights/{}"), ("API: the night", "/api/nights/{}")):
            one, twenty = paired_cpu(client, path.format(nights[1]), path.format(nights[NIGHT_GAMES]))
            rows.append(
                Row(
                    f"A night of {NIGHT_GAMES} 8-player games: {what} (CPU)",
                    ms(twenty),
                    f"a night of 1 game {ms(one)}",
                    twenty / one,
                    "≤ 1.5×",
                    twenty / one <= 1.5,
                )
            )
        token = client.get(f"/games/{gid}").get_data(as_text=True).split("/live/")[1].split('"')[0]
        trivial, fragment = paired_cpu(client, "/healthz", f"/live/{token}/fragment", pairs=101)
        rows.append(
            Row(
                "Live fragment of an 8-player game, a phone asking for a version already drawn (CPU)",
                ms(fragment),
                f"trivial route {ms(trivial)}",
                fragment / trivial,
                "≤ 1.5×",
                fragment / trivial <= 1.5,
            )
        )


def write_rows(rows: list[Row], small: dict[str, float], big: dict[str, float], size: tuple[float, float]) -> None:
    for what in WRITES:
        ratio = big[what] / small[what]
        rows.append(
            Row(
                f"Writes, 10,000 games: {what} (CPU)",
                ms(big[what]),
                f"same with 10 games {ms(small[what])}",
                ratio,
                "≤ 1.2×",
                ratio <= 1.2,
            )
        )
    ends = night_end_costs()
    for number in (20, 40):
        ratio = ends[number] / ends[1]
        rows.append(
            Row(
                f"A night of 40 games, four players who have played before: the save that ends game {number} (CPU)",
                ms(ends[number]),
                f"the save that ends game 1 {ms(ends[1])}",
                ratio,
                "≤ 1.2×",
                ratio <= 1.2,
            )
        )
    database, records = size
    rows.append(
        Row(
            "Database per 1,000 4-player games (of 10,000, vacuumed)",
            f"{database:.1f} MB, players' records {records:.1f} MB of it",
            "—",
            None,
            "reported",
            None,
        )
    )
