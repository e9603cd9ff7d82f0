"""Growth: the same pages with many more games against 10."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.support import (
    make_app,
)

from .common import Row, ms
from .exchange import exchange_benchmarks
from .history import build_history, game_date
from .writes import records_size, write_costs, write_rows


def growth_pages(last_game: int, player: int, size: int) -> dict[str, str]:
    last_year = game_date(size)[:4]
    return {
        "game page": f"/games/{last_game}",
        "player page (record of all time, games)": f"/players/{player}",
        "player page, one ruleset, a range of dates": f"/players/{player}?ruleset=ten-pennies"
        f"&from={last_year}-01-01&to={game_date(size)[:10]}",
        "head to head": f"/players/{player}/versus/{player + 1}",
        "leaderboard": "/players",
        "season leaderboard (a year, one ruleset)": f"/players?ruleset=ten-pennies&year={last_year}",
        "API: a player's record": f"/api/players/{player}",
    }


def once(client: Any, url: str) -> float:
    start = time.perf_counter()
    client.get(url)
    return time.perf_counter() - start


def growth_benchmarks(rows: list[Row]) -> None:
    """Each page with 10,000 games behind it against the same page with 10, asked in pairs (10, then
    10,000): a slow spell of a shared machine slows both sides of a pair, not one side of the run;
    the ratio is the median of the pairs'. The writes likewise alternate, game by game."""
    clients: dict[int, Any] = {}
    pages: dict[int, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as folder:
        histories = {size: f"{folder}/history-{size}.sqlite" for size in (10, 10_000)}
        for size, path in histories.items():
            last_game, player = build_history(path, size)
            size_on_disk = records_size(path, size)
            clients[size] = make_app(Path(folder), DATABASE=path, TESTING=False).test_client()
            pages[size] = growth_pages(last_game, player, size)
            for url in pages[size].values():
                assert clients[size].get(url).status_code == 200, url
        for name in pages[10]:
            urls = {size: pages[size][name] for size in clients}
            pairs = [[once(clients[size], urls[size]) for size in (10, 10_000)] for _ in range(31)]
            small, big = (statistics.median(pair[side] for pair in pairs) for side in (0, 1))
            ratio = statistics.median(pair[1] / pair[0] for pair in pairs)
            rows.append(
                Row(
                    f"Growth: {name}, 10,000 games",
                    ms(big),
                    f"same page with 10 games {ms(small)}",
                    ratio,
                    "≤ 1.5×",
                    ratio <= 1.5,
                )
            )
        writes = write_costs(clients)  # after the pages: the history they read is the one built
        print("import and export …", flush=True)
        exchange_benchmarks(rows, histories[10_000], 10_000)
    write_rows(rows, writes[10], writes[10_000], size_on_disk)
