"""Rows for house rules (issue 58): "Can I go down?" under each of the five slowest house rulesets the
editor takes (the report's three melds of 7 among them), its worst hand found against a trivial
question; and the pages a table needs while eight phones ask the slowest of them without pause."""

from __future__ import annotations

import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from scorekeeper.rules.rulesets import Ruleset, ruleset_document
from scorekeeper.store import Store
from tests.support import (
    HttpClient,
    adversarial_hands,
    free_port,
    hand_text,
    make_app,
    slow_house_rulesets,
    start_server,
)

from .common import Row, ms, percentile

SIZES = (14, 20, 30, 41)  # cards in hand: the report's 20 and 30, and more
PLAYERS = ["P0", "P1", "P2", "P3"]


def with_the_house_rulesets(folder: Path) -> Any:
    """An app whose house holds the five slowest house rulesets the editor takes (tests/support.py)."""
    app = make_app(folder, TESTING=False, DATABASE=str(folder / "scorekeeper.sqlite"))
    catalog = app.extensions["rulesets"]
    store = Store(app.config["DATABASE"])
    for house in slow_house_rulesets(catalog.rulesets):
        store.save_house_ruleset(house.id, ruleset_document(house))
    catalog.refresh_house(store)
    store.close()
    return app


def worst_hand(ask: Any, ruleset: Ruleset) -> tuple[float, str, str]:
    """(seconds, which hand, its cards) of the slowest answer over the adversarial hands."""
    worst = (0.0, "", "")
    for size in SIZES:
        for number, hand in enumerate(adversarial_hands(ruleset, 1, size)):
            cards = hand_text(hand)
            started = time.perf_counter()
            ask(cards)
            worst = max(worst, (time.perf_counter() - started, f"{size} cards, hand {number + 1}", cards))
    return worst


def house_go_down_benchmarks(rows: list[Row]) -> tuple[str, str]:
    """Under each of the five slowest house rulesets, the worst hand via the API against K K K: bounded
    by the search's budget of steps. Returns the slowest ruleset's id and worst hand, for the next row."""
    slowest = (0.0, "", "")
    with tempfile.TemporaryDirectory() as folder:
        app = with_the_house_rulesets(Path(folder))
        client = app.test_client()
        for house in slow_house_rulesets(app.extensions["rulesets"].rulesets):
            game = client.post("/api/games", json={"ruleset": house.id, "players": PLAYERS}).get_json()["id"]
            url = f"/api/games/{game}/rounds/1/can-go-down"

            def ask(cards: str, url: str = url) -> None:
                assert client.post(url, json={"cards": cards}).status_code in (200, 400)  # 400: "too many cards"

            started = time.perf_counter()
            ask("K K K")
            trivial = time.perf_counter() - started
            worst, which, cards = worst_hand(ask, app.extensions["rulesets"].rulesets[house.id])
            slowest = max(slowest, (worst, house.id, cards))
            rows.append(
                Row(
                    f"Can I go down with these? under the house rules “{house.name}” ({contract_words(house)}, "
                    f"{house.rounds[0].describe_limit()}), worst of the adversarial hands up to {SIZES[-1]} cards: "
                    f"{which}",
                    ms(worst),
                    f"a trivial question (K K K) via the API {ms(trivial)}",
                    worst / trivial,
                    "≤ 1.5 s (the search's budget of steps)",
                    worst <= 1.5,
                )
            )
    return slowest[1], slowest[2]


def pages_while_eight_ask(rows: list[Row], worst: tuple[str, str], seconds: float = 8.0) -> None:
    """A real server; eight phones ask the worst house hand without pause; /healthz and a game page
    are asked meanwhile. Their p90 is the figure."""
    house_id, cards = worst
    with tempfile.TemporaryDirectory() as folder:
        with_the_house_rulesets(Path(folder))
        port = free_port()
        server = start_server(Path(folder), port)
        try:
            setup = HttpClient(port, timeout=60)
            game = setup.json("POST", "/api/games", {"ruleset": house_id, "players": PLAYERS})["id"]
            stop = threading.Event()

            def phone() -> None:
                client = HttpClient(port, timeout=60)
                while not stop.is_set():
                    client.call("POST", f"/api/games/{game}/rounds/1/can-go-down", {"cards": cards})

            phones = [threading.Thread(target=phone) for _ in range(8)]
            for thread in phones:
                thread.start()
            time.sleep(1)
            times = pages_answered(port, game, seconds)
            stop.set()
            for thread in phones:
                thread.join()
        finally:
            server.terminate()
            server.wait()
    p90 = percentile(times, 0.9)
    rows.append(
        Row(
            "/healthz and a game page while 8 phones ask the worst house hand above without pause (a real "
            f"server, {len(times)} requests): p90",
            ms(p90),
            f"median {ms(percentile(times, 0.5))}",
            None,
            "p90 ≤ 100 ms",
            p90 <= 0.1,
        )
    )


def pages_answered(port: int, game: int, seconds: float) -> list[float]:
    client = HttpClient(port, timeout=30)
    times: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for path in ("/healthz", f"/games/{game}"):
            started = time.perf_counter()
            status, _ = client.call("GET", path)
            assert status == 200, (path, status)
            times.append(time.perf_counter() - started)
    return times


def contract_words(house: Ruleset) -> str:
    first = house.rounds[0]
    assert first.contract is not None
    return first.contract.describe()
