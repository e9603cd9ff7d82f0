"""Helpers and data shared by the tests and the benchmark (imported as ``support`` by the tests,
``tests.support`` by ``python -m bench``); conftest only holds fixtures."""

from __future__ import annotations

import http.client
import importlib.util
import io
import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.rules.cards import NATURAL_RANKS, Card, Rank, Suit
from scorekeeper.rules.rulesets import Ruleset, parse_ruleset

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Ann", "Bob", "Cy", "Di"]
PLAYERS8 = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def script(name: str) -> ModuleType:
    """One of scripts/*.py as a module (what it imports from mutmut only when it runs stays unimported)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ruleset_text(ruleset_id: str) -> str:
    """A built-in ruleset file as shipped: the start of a house rules file in a test."""
    return (ROOT / "scorekeeper" / "rules" / "data" / f"{ruleset_id}.toml").read_text(encoding="utf-8")


def load_ruleset(ruleset_id: str) -> Ruleset:
    """A built-in ruleset as shipped, read from its file."""
    return parse_ruleset(ruleset_text(ruleset_id), f"{ruleset_id}.toml")


TEN_PENNIES_TOML = ruleset_text("ten-pennies")

GAME = [  # a whole 4-player Ten Pennies game: who went out, the cards each other player was caught with
    ("Ann", {"Bob": "K 7 7 2", "Cy": "JKR A 3", "Di": "10 J Q"}),
    ("Bob", {"Ann": "5", "Cy": "", "Di": "K K"}),
    ("Cy", {"Ann": "2 2", "Bob": "A", "Di": "3 4 5"}),
    ("Di", {"Ann": "", "Bob": "JKR", "Cy": "9"}),
    ("Ann", {"Bob": "Q", "Cy": "Q", "Di": "Q"}),
    ("Bob", {"Ann": "10", "Cy": "8 8", "Di": ""}),
    ("Cy", {"Ann": "7", "Bob": "6", "Di": "A A"}),
]


def examples(for_ci: int) -> int:
    """How many cases a property test generates: all of them in CI (HYPOTHESIS_PROFILE=ci, set by
    .ci/run), a tenth on a developer's run, so a quick check does not pay for CI's thoroughness.
    Every CI run draws new cases, so the cases add up run after run: the slowest tests (a request or a
    brute-force search per case) ask for fewer per run (issue 59: CI in half its time)."""
    return for_ci if os.environ.get("HYPOTHESIS_PROFILE") == "ci" else max(20, for_ci // 10)


_MIGRATED: list[Path] = []  # this test process's migrated empty database, made once


def migrated_database() -> Path:
    """An empty database with every migration applied, made once per test process: each test's
    database starts as a copy of it (issue 59: every new database ran all the migrations, 38% of the
    quick suite's time outside the tests' own bodies). The migrations themselves are tested from
    databases of earlier versions (tests/test_upgrades.py, tests/test_schema.py)."""
    if not _MIGRATED:
        import atexit
        import shutil
        import tempfile

        from scorekeeper.store import Store

        folder = Path(tempfile.mkdtemp(prefix="scorekeeper-migrated-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        store = Store(folder / "migrated.sqlite")
        store.migrate()
        store.close()  # the last connection checkpoints the WAL: one self-contained file
        _MIGRATED.append(folder / "migrated.sqlite")
    return _MIGRATED[0]


def copy_of_migrated(path: Path) -> Path:
    """``path`` made a copy of the migrated empty database, unless a database is there already (a test
    that opens an app again on the same folder)."""
    import shutil

    if not path.exists():
        shutil.copyfile(migrated_database(), path)
    return path


def make_app(folder: Path, **config: Any) -> Flask:
    """An app on a real SQLite file in ``folder`` (flaskr's way), with house rules read from folder/rulesets.
    Its database starts as a copy of one migrated once (unless config names another)."""
    folder.mkdir(parents=True, exist_ok=True)
    if "DATABASE" not in config:
        copy_of_migrated(folder / "scorekeeper.sqlite")
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / "scorekeeper.sqlite"),
            "SECRET_KEY": "test-only",
            "RULESETS_DIR": str(folder / "rulesets"),
            "BACKUPS_DIR": str(folder / "backups"),
            **config,
        }
    )


class Api:
    """A thin helper over the JSON API that asserts the status it expects."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def call(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        response = self.client.open(path, method=method, json=body)
        assert response.status_code == status, response.get_json()
        return response.get_json()

    def new_game(self, players: list[str] = PLAYERS, ruleset: str = "ten-pennies", **extra: Any) -> Any:
        body = {"ruleset": ruleset, "players": players, "first_dealer": players[0], **extra}
        return self.call("POST", "/api/games", body, 201)

    def buy(self, game_id: int, player: str, status: int = 201) -> Any:
        return self.call("POST", f"/api/games/{game_id}/buys", {"player": player}, status)

    def round(self, game_id: int, went_out: str, caught: dict[str, str], status: int = 201) -> Any:
        return self.call("POST", f"/api/games/{game_id}/rounds", {"went_out": went_out, "caught": caught}, status)


def tie_game(api: Api, night: int | None, cy: str = "5", di: str = "5 5") -> Any:
    """Ann and Bob go out in turn and tie on 0; Cy and Di are caught every round.
    With the defaults: 7 × 3 = 21 pennies, 10 each, 1 left in the bowl."""
    body = {"ruleset": "ten-pennies", "players": PLAYERS, "night": night, "first_dealer": "Ann"}
    gid = api.call("POST", "/api/games", body, 201)["id"]
    state = None
    for number in range(7):
        out, other = ("Ann", "Bob") if number % 2 == 0 else ("Bob", "Ann")
        state = api.round(gid, out, {other: "", "Cy": cy, "Di": di})
    return state


JsonCall = Callable[[str, str, Any], Any]  # (method, path, body) -> the JSON answer
TextGet = Callable[[str], str]  # path -> the page's HTML


def showcase(call: JsonCall, get: TextGet) -> list[str]:
    """Every page of the app a person opens, each in a state a table meets (issue 60): an 8-player game
    in play with buys (its live view, table view, round form, a correction, an undo), a finished game
    with one leader, a tie, a Pennies From Heaven game of two sides, a night with its summary and a
    night under a PIN, the players' records, the rule cards, the house-rules form and the help.
    Built through the JSON API by ``call``, so the browser tests and the test client build the same;
    tests/test_valid_pages.py checks it covers every page route. Open them on another phone than the one
    that made them: a night's PIN unlocks it for the phone that set it."""
    night = call("POST", "/api/nights", {"name": "Friday", "money": "paper"})["id"]
    locked_night = call("POST", "/api/nights", {"name": "Club"})["id"]
    eight = {"ruleset": "ten-pennies", "players": PLAYERS8, "first_dealer": "Ann", "night": night}
    playing = call("POST", "/api/games", eight)["id"]
    for buyer in ("Bob", "Gus"):
        call("POST", f"/api/games/{playing}/buys", {"player": buyer})
    for number in range(2):
        call("POST", f"/api/games/{playing}/rounds", eight_player_round(number))
    four = {"ruleset": "ten-pennies", "players": PLAYERS, "first_dealer": "Ann", "night": night}
    won = call("POST", "/api/games", four)["id"]
    for _ in range(7):
        call("POST", f"/api/games/{won}/rounds", {"went_out": "Ann", "caught": {"Bob": "K", "Cy": "5", "Di": "5 5"}})
    tie = call("POST", "/api/games", {**four, "night": None})["id"]
    for number in range(7):
        out, other = ("Ann", "Bob") if number % 2 == 0 else ("Bob", "Ann")
        call("POST", f"/api/games/{tie}/rounds", {"went_out": out, "caught": {other: "", "Cy": "5", "Di": "5 5"}})
    teams = [["Ann", "Cy"], ["Bob", "Di"]]
    sides = call("POST", "/api/games", {**four, "ruleset": "pennies-from-heaven", "teams": teams, "night": None})["id"]
    in_locked_night = call("POST", "/api/games", {**four, "night": locked_night, "pin": "1357"})["id"]
    locked = call("POST", "/api/games", {**four, "night": None, "pin": "2468"})["id"]
    live = found(r"/live/([\w-]+)", get(f"/games/{playing}"))
    night_link = found(r"/night/([\w-]+)", get(f"/nights/{night}"))
    first_event = found(r"/games/\d+/undo/(\d+)", get(f"/games/{playing}/history"))
    return [
        "/",
        "/games/new",
        f"/games/{playing}",
        f"/games/{playing}/rounds/new",
        f"/games/{playing}/rounds/1/edit",
        f"/games/{playing}/history",
        f"/games/{playing}/table",
        f"/games/{playing}/undo/{first_event}",
        f"/games/{playing}/delete",
        f"/live/{live}",
        f"/night/{night_link}",
        f"/night/{night_link}/table",
        f"/games/{won}",
        f"/games/{tie}",
        f"/games/{tie}/history",
        f"/games/{sides}",
        f"/games/{sides}/rounds/new",
        f"/games/{in_locked_night}",
        f"/games/{locked}",
        f"/games/{locked}/unlock",
        "/nights",
        f"/nights/{night}",
        f"/nights/{night}/explain",
        f"/nights/{night}/delete",
        f"/nights/{locked_night}",
        f"/nights/{locked_night}/unlock",
        "/players",
        "/players?ruleset=ten-pennies&from=2000-01-01&to=2999-12-31",
        "/players/1",
        "/players/1/versus/2",
        "/melds",
        "/melds?ruleset=ten-pennies&round=1&stage=first-down&melds-0=7S+7H+7D&melds-1=9C+9D+JKR",
        "/rulesets",
        "/rulesets/ten-pennies",
        "/rulesets/pennies-from-heaven",
        "/rulesets/ten-card-rummy",
        "/rulesets/new?from=ten-pennies",
        "/rulesets/new?from=pennies-from-heaven",
        "/help/",
        "/help/guide",
        "/help/rules",
        "/help/features",
        "/help/host",
        "/help/this-phone",
    ]


def eight_player_round(i: int) -> dict[str, object]:
    """Round i of an 8-player game: one player goes out, about two in three are caught with 6 cards."""
    out = PLAYERS8[i % 8]
    return {
        "went_out": out,
        "caught": {p: "K 7 7 2 JKR 3" if (i + j) % 3 else "" for j, p in enumerate(PLAYERS8) if p != out},
    }


def pdf_tables(data: bytes) -> list[list[list[str]]]:
    """Every table of a PDF, page by page, as rows of cell texts (pdfplumber reads the ruled cells)."""
    import pdfplumber

    assert data.startswith(b"%PDF")
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [
            [[cell or "" for cell in row] for row in table] for page in pdf.pages for table in page.extract_tables()
        ]


def table_row(tables: list[list[list[str]]], first_cell: str) -> list[str]:
    """The one row whose first cell reads ``first_cell`` (it must be there exactly once)."""
    rows = [row for table in tables for row in table if row[0] == first_cell]
    assert len(rows) == 1, (first_cell, rows)
    return rows[0]


def suited(rank: Rank, suit: Suit) -> Card:
    return Card(rank) if rank is Rank.JOKER else Card(rank, suit)


def adversarial_hands(ruleset: Ruleset, number: int, size: int) -> Iterator[list[Card]]:
    """Hands of ``size`` cards built to defeat a search by combinations: one rank, two ranks, all
    wilds, half wilds, long suited runs, and a spread with no contract in it (so all must be tried)."""
    wild = sorted(ruleset.round(number).wilds)[0]
    suits = list(Suit)
    yield [Card(Rank.KING, suits[i % 4]) for i in range(size)]
    yield [Card(Rank.KING if i % 2 else Rank.QUEEN, suits[i % 4]) for i in range(size)]
    yield [suited(wild, suits[i % 4]) for i in range(size)]
    yield [Card(Rank.SEVEN, suits[i % 4]) if i % 2 else suited(wild, suits[i % 4]) for i in range(size)]
    yield [Card(NATURAL_RANKS[i % 13], suits[(i // 13) % 2]) for i in range(size)]
    spread = [Card(NATURAL_RANKS[(3 * i) % 13], suits[i % 4]) for i in range(size)]
    yield [card if i % 3 else suited(wild, suits[0]) for i, card in enumerate(spread)]
    # Long runs of one suit with a quarter wild cards (every kind of wild): the searches a probe
    # found slow (a run leaving out naturals for a later meld; wilds handed out to many set pairs).
    wilds = sorted(ruleset.round(number).wilds)
    quarter = size // 4
    yield [Card(NATURAL_RANKS[i % 13], Suit.HEARTS) for i in range(size - quarter)] + [
        suited(wilds[i % len(wilds)], suits[i % 4]) for i in range(quarter)
    ]
    yield [Card(NATURAL_RANKS[(5 * i) % 13], suits[(i // 13) % 2]) for i in range(size - quarter)] + [
        suited(wilds[i % len(wilds)], suits[(i + 1) % 4]) for i in range(quarter)
    ]


def slowest_house_round(rulesets: dict[str, Ruleset]) -> Ruleset:
    """The house round issue 58's report found slowest for "can I go down?": Ten Card Rummy with one
    round of three melds of 7, 2s, aces and jokers wild, at most 2 of each."""
    return slow_house_rulesets(rulesets)[0]


def slow_house_rulesets(rulesets: dict[str, Ruleset]) -> list[Ruleset]:
    """The five house rulesets slowest for "can I go down?" that a probe of the editor's knobs found
    (Ten Card Rummy's first round changed; every one read back by the reader the editor saves through),
    the report's first. Slowest to answer, each with its worst hand: three melds of 7 with 2s, aces and
    jokers wild and at most 2 of each, alone, with no duplicates, with suits required, with at most 3
    wilds a meld too; and four melds of 5 with at most 1 of each."""
    every_wild = frozenset({Rank.TWO, Rank.ACE, Rank.JOKER})
    changes: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
        ("three-sevens", "Three sevens", {"melds": 3, "size": 7, "wild_limit_per_kind": 2}, {}),
        (
            "three-sevens-no-twins",
            "Three sevens, no twins",
            {"melds": 3, "size": 7, "wild_limit_per_kind": 2},
            {"no_duplicates": True},
        ),
        (
            "three-sevens-suited",
            "Three sevens, suits said",
            {"melds": 3, "size": 7, "wild_limit_per_kind": 2},
            {"suits_required": True},
        ),
        (
            "three-sevens-capped",
            "Three sevens, 3 wilds a meld",
            {"melds": 3, "size": 7, "wild_limit_per_kind": 2, "wild_limit": 3},
            {},
        ),
        ("four-fives", "Four fives", {"melds": 4, "size": 5, "wild_limit_per_kind": 1}, {}),
    ]
    return [
        _house_first_round(rulesets["ten-card-rummy"], house_id, name, every_wild, round_changes, ruleset_changes)
        for house_id, name, round_changes, ruleset_changes in changes
    ]


def _house_first_round(
    base: Ruleset,
    house_id: str,
    name: str,
    wilds: frozenset[Rank],
    round_changes: dict[str, Any],
    ruleset_changes: dict[str, Any],
) -> Ruleset:
    """``base`` with one round, its first changed, as the house-rules editor saves it (its reader)."""
    import dataclasses

    from scorekeeper.rules.rulesets import read_ruleset, ruleset_document

    first = base.rounds[0]
    assert first.contract is not None
    sizes = {key: round_changes.pop(key) for key in ("melds", "size") if key in round_changes}
    round_ = dataclasses.replace(
        first, contract=dataclasses.replace(first.contract, **sizes), wilds=wilds, **round_changes
    )
    house = dataclasses.replace(base, id=house_id, name=name, rounds=(round_,), **ruleset_changes)
    return read_ruleset(ruleset_document(house), house_id)


def words(page: str) -> str:
    """A page's text without its tags (a name and its amount sit in one unbreakable span)."""
    return re.sub(r"<[^>]+>", "", page)


def hand_text(cards: list[Card]) -> str:
    return " ".join(str(card) for card in cards)


def found(pattern: str, text: str, *, group: int = 1) -> str:
    """The first match of ``pattern`` in ``text`` (a page, a URL), its ``group``; a test fails
    saying what was not found, not that None has no ``group``."""
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not found in {text[:300]!r}"
    return match.group(group)


def csrf_token(html: str) -> str:
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert match, "no CSRF token in the page"
    return match.group(1)


def new_game_form(page: str, pin: str, night: int | str = "") -> dict[str, str]:
    """The new-game form of ``page`` as a phone sends it: Ten Pennies for PLAYERS, Ann dealing first,
    a penny at 1¢, with ``pin`` (and ``night``); the rest of the eight name boxes empty."""
    data = {
        "csrf_token": csrf_token(page),
        "ruleset": "ten-pennies",
        "first_dealer": "0",
        "penny_cents": "1",
        "teams": "0",
        "night": str(night),
        "pin": pin,
    }
    return data | {f"players-{seat}": PLAYERS[seat] if seat < len(PLAYERS) else "" for seat in range(8)}


# --- a real server on this machine (waitress, as `flask serve` runs it) --------------------------


def lines_until(process: subprocess.Popen[str], last: str, seconds: float = 120) -> list[str]:
    """A started command's lines, up to the first that starts with ``last`` (or its end, or the time)."""
    lines: list[str] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.stdout:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if line.startswith(last):
            break
    return lines


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(instance: Path, port: int, attempts: int = 200, network: bool = False) -> subprocess.Popen[bytes]:
    """`scorekeeper --instance … serve` on 127.0.0.1:port (with ``network``, `serve --network`: on every
    address, as at home); waits until it answers on 127.0.0.1."""
    command = Path(sys.executable).with_name("scorekeeper")
    server = subprocess.Popen(
        [str(command), "--instance", str(instance), "serve", "--port", str(port), *(["--network"] if network else [])],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(attempts):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise RuntimeError("the server did not start")


class HttpClient:
    """One keep-alive connection to a real server, as a browser holds."""

    def __init__(self, port: int, timeout: float = 10) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def call(
        self, method: str, path: str, body: object = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        headers = {**({"Content-Type": "application/json"} if body is not None else {}), **(headers or {})}
        data = json.dumps(body).encode() if body is not None else None
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        return response.status, response.read()

    def json(self, method: str, path: str, body: object = None) -> Any:
        status, data = self.call(method, path, body)
        assert status < 400, (method, path, status, data[:200])
        return json.loads(data)


def owed(report: dict[str, Any]) -> list[tuple[str, str, int]]:
    """What a night's report (the API's) says is still owed, in its order: (from, to, cents)."""
    return [(p["from"], p["to"], p["cents"]) for p in report["still_owed"]]


def made(report: dict[str, Any]) -> list[tuple[str, str, int]]:
    """The payments a night's report says were made and not taken back: (from, to, cents)."""
    return [(p["from"], p["to"], p["cents"]) for p in report["payments_made"] if not p["undone_at"]]
