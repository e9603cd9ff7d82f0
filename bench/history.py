"""A house's history for the benchmark: finished 4-player games, ten a night, a night a week."""

from __future__ import annotations

import datetime
from pathlib import Path

from tests.support import make_app

HISTORY_START = datetime.date(2007, 1, 5)
GAMES_A_NIGHT = 10


def game_date(gid: int) -> str:
    """Ten games a night, a night a week: 10,000 games are nineteen years of Fridays."""
    night = HISTORY_START + datetime.timedelta(weeks=(gid - 1) // GAMES_A_NIGHT)
    return f"{night.isoformat()}T20:00:00+00:00"


def build_history(path: str, games: int) -> tuple[int, int]:
    """``games`` finished 4-player games among 24 players, written as an import (ids kept), ten a
    night, one night a week (players' records are kept by day, month and year: the years count)."""
    from scorekeeper.commands.derived import result_rows
    from scorekeeper.reads.loading import load_game
    from scorekeeper.store import Store, exchange, record_keeping

    app = make_app(Path(path).parent, DATABASE=path, TESTING=False)
    store = Store(path)
    names = [f"Player {i:02d}" for i in range(24)]  # the same 24 players at either size
    next_event = 1
    script = [
        ("A", {"B": "K 7", "C": "5", "D": ""}),
        ("B", {"A": "2", "C": "", "D": "Q Q"}),
        ("C", {"A": "", "B": "9", "D": "3"}),
        ("D", {"A": "K", "B": "", "C": "JKR"}),
        ("A", {"B": "5 5", "C": "", "D": "A"}),
        ("B", {"A": "", "C": "10", "D": "4"}),
        ("C", {"A": "6", "B": "", "D": ""}),
    ]
    dump_games = []
    for gid in range(1, games + 1):
        # The measured player sits in every game; the others take turns, so 10 games seat all 24.
        seated = [names[0], *(names[1 + (3 * gid + k) % 23] for k in range(3))]
        letters = dict(zip("ABCD", seated, strict=True))
        evs = []
        for number, (out, caught) in enumerate(script, start=1):
            payload = {"round": number, "went_out": letters[out], "caught": {letters[k]: v for k, v in caught.items()}}
            evs.append({"id": next_event, "kind": "round", "payload": payload, "created_at": game_date(gid)})
            next_event += 1
        dump_games.append(
            {
                "id": gid,
                "ruleset": "ten-pennies",
                "created_at": game_date(gid),
                "first_dealer": 0,
                "penny_cents": 1,
                "night_id": None,
                "players": [{"seat": s, "name": n, "side": s} for s, n in enumerate(seated)],
                "events": evs,
            }
        )
    exchange.load_dump(store, {"format": "scorekeeper-export", "version": 1, "nights": [], "games": dump_games})
    template = None
    with store.writing():
        for gid in range(1, games + 1):
            if template is None:
                template = result_rows(load_game(store, app.extensions["rulesets"], gid).game)
            store.save_results(gid, template)  # every game has the same script, so the same results
            record_keeping.keep_game(store, gid, was_finished=False)
    player = store.player_id(names[0])
    store.close()
    return games, int(player or 1)
