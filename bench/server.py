"""A real server under load: pages and saves while phones poll, a whole night."""

from __future__ import annotations

import multiprocessing
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tests.support import (
    PLAYERS8,
    HttpClient,
    eight_player_round,
    free_port,
    start_server,
)

from .common import NIGHT_GAMES, Row, ms, percentile


def timed(
    client: HttpClient, method: str, path: str, body: object = None, headers: dict[str, str] | None = None
) -> float:
    start = time.perf_counter()
    status, _ = client.call(method, path, body, headers)
    elapsed = time.perf_counter() - start
    assert status < 400, (method, path, status)
    return elapsed


def background_load(port: int, paths: list[str], seconds: float, max_requests: int) -> None:
    """A second process reading pages while the measurement runs (bounded in count and time)."""
    client, deadline, sent = HttpClient(port), time.time() + seconds, 0
    while time.time() < deadline and sent < max_requests:
        client.call("GET", paths[sent % len(paths)])
        sent += 1
        time.sleep(0.005)  # a lively table, not a flood


def new_game(client: HttpClient, night: int | None = None) -> int:
    body: dict[str, object] = {"ruleset": "ten-pennies", "players": PLAYERS8}
    if night is not None:
        body["night"] = night
    return int(client.json("POST", "/api/games", body)["id"])


def finished_game(client: HttpClient) -> int:
    """A finished 8-player game of Ten Pennies (7 rounds, two players in three caught each round)."""
    game_id = new_game(client)
    for i in range(7):
        client.call("POST", f"/api/games/{game_id}/rounds", eight_player_round(i))
    return game_id


def live_token(client: HttpClient, game_id: int) -> str:
    _, html = client.call("GET", f"/games/{game_id}")
    return html.decode().split("/live/")[1].split('"')[0]


def server_benchmarks(rows: list[Row]) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(Path(folder), port)
        try:
            client = HttpClient(port)
            finished = finished_game(client)  # for the pages
            page = f"/games/{finished}"
            fragment = f"/live/{live_token(client, finished)}/fragment"
            load = multiprocessing.Process(
                target=background_load, args=(port, [page, fragment, "/healthz"], 120, 20000)
            )
            load.start()
            try:
                for _ in range(20):  # warm up
                    timed(client, "GET", "/healthz")
                trivial = [timed(client, "GET", "/healthz") for _ in range(300)]
                saves = []
                for _ in range(43):  # 43 games × 7 rounds = 301 round saves
                    gid = new_game(client)
                    saves += [
                        timed(client, "POST", f"/api/games/{gid}/rounds", eight_player_round(i)) for i in range(7)
                    ]
                pages = [timed(client, "GET", page) for _ in range(200)]
                scorepads = [timed(client, "GET", fragment) for _ in range(200)]
                # What eight phones ask every 0.75 s while nothing changes: the version they hold, 304.
                state = fragment.replace("/fragment", "/state")
                unchanged = {"If-None-Match": f'"v{client.json("GET", state)["version"]}"'}
                polls = [timed(client, "GET", state, headers=unchanged) for _ in range(300)]
            finally:
                load.terminate()
                load.join()
        finally:
            server.kill()
            server.wait()
    floor = statistics.median(trivial)
    p50 = statistics.median(polls)
    rows.append(
        Row(
            "Live poll of an unchanged game (304 Not Modified)",
            f"p50 {ms(p50)}, p99 {ms(percentile(polls, 0.99))}",
            f"trivial route p50 {ms(floor)}",
            p50 / floor,
            "p50 ≤ 1.5×",
            p50 / floor <= 1.5,
        )
    )
    # A trivial route does none of a page's or a save's work: for those two it is context (issue 45);
    # their targets are against their own floors (bench/floors.py).
    for what, values, is_target in (
        ("Round save (8 players, 7 caught hands), POST", saves, False),
        ("Game page, 8-player finished game", pages, False),
        ("Scorepad table (live fragment), 8 players", scorepads, True),
    ):
        p50, p99 = statistics.median(values), percentile(values, 0.99)
        rows.append(
            Row(
                what,
                f"p50 {ms(p50)}, p99 {ms(p99)}",
                f"trivial route p50 {ms(floor)}, p99 {ms(percentile(trivial, 0.99))}",
                p50 / floor,
                "p50 ≤ 2×" if is_target else "context",
                p50 / floor <= 2 if is_target else None,
            )
        )
    return {"saves_per_second": 1 / statistics.median(saves)}


def night_benchmarks(rows: list[Row]) -> None:
    """The 20th game of a night against the 1st: loading a game must not replay the games before it."""
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(Path(folder), port)
        try:
            client = HttpClient(port)
            night = client.json("POST", "/api/nights", {"name": "bench"})["id"]
            games = []
            for _ in range(NIGHT_GAMES):
                gid = new_game(client, night)
                for i in range(7):
                    client.json("POST", f"/api/games/{gid}/rounds", eight_player_round(i))
                games.append(gid)
            first, last = games[0], games[-1]
            tokens = {g: live_token(client, g) for g in (first, last)}
            paths: dict[str, Callable[[int], str]] = {
                "game page": lambda g: f"/games/{g}",
                "API state": lambda g: f"/api/games/{g}",
                "live poll": lambda g: f"/live/{tokens[g]}/state",
            }
            for what, path in paths.items():
                for _ in range(20):  # warm up
                    timed(client, "GET", path(first)), timed(client, "GET", path(last))
                a, b = [], []
                for _ in range(150):  # interleaved, so a busy moment costs both alike
                    a.append(timed(client, "GET", path(first)))
                    b.append(timed(client, "GET", path(last)))
                one, twenty = statistics.median(a), statistics.median(b)
                rows.append(
                    Row(
                        f"Night of {NIGHT_GAMES} 8-player games: {what} of game {NIGHT_GAMES}",
                        ms(twenty),
                        f"same for game 1 {ms(one)}",
                        twenty / one,
                        "≤ 1.2× (issue: ≤ 1.5×)",
                        twenty / one <= 1.2,
                    )
                )
        finally:
            server.kill()
            server.wait()
