"""Players' records kept game by game (issue 46): a game that ends is added to its day, month, year
and all time by its own numbers, and a write that changes no finished result touches no record. The
rule the shortcut must keep: the records are always exactly those added up from every finished game
from scratch (``from_scratch`` below, the way the store added them up before)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import Api, make_app
from test_cousins import PFH_HANDS, TEAMS

from scorekeeper.commands import TRUSTED, run
from scorekeeper.commands.derived import import_dump
from scorekeeper.commands.games import RecordBuy, RecordRound
from scorekeeper.store import Store, record_keeping, records
from scorekeeper.web import current_catalog

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
RECORD_TABLES = ("player_days", "pair_days")


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def kept(store: Store) -> dict[str, list[Any]]:
    return {table: store.db.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3, 4").fetchall() for table in RECORD_TABLES}


def from_scratch(store: Store) -> dict[str, list[Any]]:
    """Every record added up again from the games, oldest first, each period from the one below."""
    with store.writing():
        for table in RECORD_TABLES:
            store.db.execute(f"DELETE FROM {table}")
        ended = store.db.execute("SELECT DISTINCT day, game_id FROM results WHERE finished = 1 ORDER BY day, game_id")
        for _, game_id in ended.fetchall():
            record_keeping.refresh_game(store, game_id)
    return kept(store)


def store_of(app: Any) -> Store:
    return Store(app.config["DATABASE"])


def play(api: Api, game_id: int, out: str, caught: dict[str, str], rounds: int) -> None:
    for _ in range(rounds):
        api.round(game_id, out, caught)


def test_records_kept_game_by_game_are_those_added_up_from_scratch(tmp_path: Path):
    """An evening of everything that can happen to a finished game: games ending in order, a game
    left open while later ones end, a correction after the end, an undo that reopens a game and a
    different end, a team game, another ruleset, a player who sits out."""
    app = make_app(tmp_path)
    api = Api(app.test_client())
    left_open = api.new_game()["id"]
    play(api, left_open, "Ann", {"Bob": "K", "Cy": "5", "Di": ""}, 6)
    first = api.new_game(["Ann", "Bob", "Cy", "Eve"])["id"]
    play(api, first, "Bob", {"Ann": "K K", "Cy": "", "Eve": "9"}, 7)
    second = api.new_game()["id"]
    play(api, second, "Cy", {"Ann": "", "Bob": "5 5", "Di": "Q"}, 7)
    play(api, left_open, "Di", {"Ann": "K", "Bob": "", "Cy": "3"}, 1)  # ends after later games
    api.call("PUT", f"/api/games/{first}/rounds/1", {"went_out": "Ann", "caught": {"Bob": "K", "Cy": "", "Eve": ""}})
    reopened = api.new_game()["id"]
    play(api, reopened, "Ann", {"Bob": "K", "Cy": "", "Di": "4"}, 7)
    last_entry = api.call("GET", f"/api/games/{reopened}/history")[-1]["id"]
    api.call("POST", f"/api/games/{reopened}/undo", {"event": last_entry}, 201)
    play(api, reopened, "Bob", {"Ann": "K K K", "Cy": "", "Di": "4"}, 1)
    teams = api.new_game(ruleset="pennies-from-heaven", teams=TEAMS)["id"]
    for went_out, sides in PFH_HANDS:
        api.call("POST", f"/api/games/{teams}/rounds", {"went_out": went_out, "sides": sides}, 201)
    rummy = api.new_game(ruleset="ten-card-rummy")["id"]
    play(api, rummy, "Bob", {"Ann": "K", "Cy": "3", "Di": "4"}, 11)
    store = store_of(app)
    as_kept = kept(store)
    assert as_kept["player_days"] and as_kept["pair_days"]
    assert as_kept == from_scratch(store)


def game(game_id: int, day: str, seated: list[str], winners: list[int]) -> dict[str, Any]:
    """A finished Ten Pennies game for an export: round by round, seat ``winners[n]`` goes out."""
    events = []
    for number, out in enumerate(winners, start=1):
        caught = {name: ("K 5" if (seat + number) % 3 else "") for seat, name in enumerate(seated) if seat != out}
        payload = {"round": number, "went_out": seated[out], "caught": caught}
        events.append({"id": game_id * 10 + number, "kind": "round", "payload": payload, "created_at": day})
    return {
        "id": game_id,
        "ruleset": "ten-pennies",
        "created_at": day,
        "first_dealer": 0,
        "penny_cents": 1,
        "night_id": None,
        "players": [{"seat": seat, "name": name, "side": seat} for seat, name in enumerate(seated)],
        "events": events,
    }


DAYS = ["2025-12-31", "2026-01-01", "2026-01-02", "2026-02-01", "2027-03-05"]
games_in_any_order = st.lists(
    st.tuples(
        st.sampled_from(DAYS),
        st.permutations(["Ann", "Bob", "Cy", "Di", "Eve"]).map(lambda names: names[:4]),
        st.lists(st.integers(0, 3), min_size=6, max_size=7),  # six rounds: a game still in play
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(games_in_any_order)
def test_an_import_of_games_of_any_days_in_any_order_keeps_the_records_exactly(tmp_path_factory, played):
    """An import's games come numbered, whatever their days, and may join games already here (two
    imports: the second adds games before and after the players' kept ones): the records are added
    up so that the streaks still join in the order played."""
    app = make_app(tmp_path_factory.mktemp("import"))
    games = [
        game(number, f"{day}T20:00:00+00:00", seated, wins) for number, (day, seated, wins) in enumerate(played, 1)
    ]
    with app.app_context():
        store = store_of(app)
        for part in (games[::2], games[1::2]):
            export = {"format": "scorekeeper-export", "version": 1, "nights": [], "games": part}
            import_dump(store, current_catalog(), export)
            assert kept(store) == from_scratch(store)


# --- what a write touches ------------------------------------------------------------------------


def count_touches(store: Store) -> None:
    """Triggers that count every row written in the records tables (real SQLite, no mock)."""
    store.db.execute("CREATE TABLE touched (n INTEGER)")
    for table in RECORD_TABLES:
        for change in ("INSERT", "UPDATE", "DELETE"):
            store.db.execute(
                f"CREATE TRIGGER count_{change.lower()}_{table} AFTER {change} ON {table} "
                "BEGIN INSERT INTO touched VALUES (1); END"
            )
    store.db.conn.commit()


def touches(store: Store) -> int:
    found = store.db.execute("SELECT count(*) FROM touched").fetchone()[0]
    store.db.execute("DELETE FROM touched")
    store.db.conn.commit()
    return int(found)


def test_a_write_that_changes_no_finished_result_touches_no_record(tmp_path: Path):
    """Buys, rounds, corrections, undo and drafts of a game in play leave the records alone, however
    long the players' history; the write that ends the game is the one that counts."""
    app = make_app(tmp_path)
    api = Api(app.test_client())
    for _ in range(2):  # some history to leave alone
        play(api, api.new_game()["id"], "Ann", {"Bob": "K", "Cy": "", "Di": "5"}, 7)
    store = store_of(app)
    count_touches(store)
    gid = api.new_game()["id"]
    api.buy(gid, "Bob")
    play(api, gid, "Cy", {"Ann": "K", "Bob": "", "Di": "5"}, 2)
    last_entry = api.call("GET", f"/api/games/{gid}/history")[-1]["id"]
    api.call("POST", f"/api/games/{gid}/undo", {"event": last_entry}, 201)
    api.call("PUT", f"/api/games/{gid}/rounds/1", {"went_out": "Cy", "caught": {"Ann": "", "Bob": "", "Di": ""}})
    api.call("PUT", f"/api/games/{gid}/rounds/2/drafts/Ann", {"cards": "K 7"})
    assert touches(store) == 0
    play(api, gid, "Cy", {"Ann": "K", "Bob": "", "Di": "5"}, 6)
    assert touches(store) > 0


def sqlite_steps(store: Store, write: Any) -> int:
    """The work SQLite does for ``write``, counted in its own virtual-machine steps (deterministic,
    unlike a clock): what a write reads grows these, what it skips does not."""
    steps = [0]

    def step() -> int:
        steps[0] += 1
        return 0

    store.db.conn.set_progress_handler(step, 1)
    try:
        write()
    finally:
        store.db.conn.set_progress_handler(None, 1)
    return steps[0]


def test_the_twentieth_game_of_a_night_ends_with_the_work_of_the_first(tmp_path: Path):
    """A game's end adds its own numbers to its day, month, year and all time: the same work for the
    last game of a long night as for the first, however many games the day already holds."""
    app = make_app(tmp_path)
    api = Api(app.test_client())
    night = api.call("POST", "/api/nights", {"name": "long"}, 201)["id"]
    ends = []
    with app.app_context():
        store = store_of(app)
        for _ in range(20):
            gid = api.new_game(night=night)["id"]
            play(api, gid, "Ann", {"Bob": "K", "Cy": "", "Di": "5"}, 6)
            last = RecordRound(game_id=gid, version=None, went_out="Ann", caught={"Bob": "K", "Cy": "", "Di": "5"})
            ends.append(sqlite_steps(store, lambda last=last: run(store, current_catalog(), last, TRUSTED)))
    second, twentieth = ends[1], ends[-1]  # the first game's end inserts the rows the others update
    assert twentieth <= second * 1.05, ends


def test_a_buy_and_a_round_cost_the_same_after_years_of_games(tmp_path: Path):
    """The same buy and round of the same four players, with 1 game behind them and with 13: the
    write reads nothing of the games before (it changes no finished result)."""
    app = make_app(tmp_path)
    api = Api(app.test_client())
    costs = []
    with app.app_context():
        store = store_of(app)
        for history in (1, 12):
            for _ in range(history):
                play(api, api.new_game()["id"], "Ann", {"Bob": "K", "Cy": "", "Di": "5"}, 7)
            gid = api.new_game()["id"]
            buy = RecordBuy(game_id=gid, version=None, player="Bob", round=None)
            first = RecordRound(game_id=gid, version=None, went_out="Ann", caught={"Bob": "K", "Cy": "", "Di": "5"})
            costs.append(
                [sqlite_steps(store, lambda c=c: run(store, current_catalog(), c, TRUSTED)) for c in (buy, first)]
            )
    assert costs[0] == costs[1], costs


# --- the opt-in rating ---------------------------------------------------------------------------


def test_a_game_that_ends_while_the_rating_is_worked_out_is_never_left_out(tmp_path: Path):
    """Issue 39: a page works the rating out from the games as they were when it began; a game that
    ends meanwhile must leave the rating to be worked out again, not be marked as counted."""
    from scorekeeper.rules.rating import rate

    app = make_app(tmp_path)
    api = Api(app.test_client())
    play(api, api.new_game()["id"], "Ann", {"Bob": "K", "Cy": "", "Di": "5"}, 7)
    store = store_of(app)
    seen, games = records.rating_snapshot(store)  # a player page begins to work the rating out
    play(api, api.new_game()["id"], "Bob", {"Ann": "K", "Cy": "", "Di": "5"}, 7)  # a game ends meanwhile
    records.keep_ratings(store, rate(games), seen)  # the page keeps what it worked out
    assert records.ratings_stale(store)  # the second game is not counted yet: worked out again
    seen, games = records.rating_snapshot(store)
    records.keep_ratings(store, rate(games), seen)
    assert not records.ratings_stale(store)
    assert (rating := records.rating(store, records.players(store)[0]["id"])) is not None and rating.games == 2


def test_an_older_working_out_never_overwrites_a_newer_one(tmp_path: Path):
    from scorekeeper.rules.rating import rate

    app = make_app(tmp_path)
    api = Api(app.test_client())
    play(api, api.new_game()["id"], "Ann", {"Bob": "K", "Cy": "", "Di": "5"}, 7)
    store = store_of(app)
    older = records.rating_snapshot(store)
    play(api, api.new_game()["id"], "Bob", {"Ann": "K", "Cy": "", "Di": "5"}, 7)
    newer = records.rating_snapshot(store)
    records.keep_ratings(store, rate(newer[1]), newer[0])
    records.keep_ratings(store, rate(older[1]), older[0])  # a slower page finishing last
    assert not records.ratings_stale(store)
    assert (rating := records.rating(store, records.players(store)[0]["id"])) is not None and rating.games == 2


def test_the_rated_games_are_the_finished_games_one_by_one_in_the_order_played(tmp_path: Path):
    """Each finished game is one RatedGame of its own (a game never runs into the next), its sides in
    seat order with their places: Ann and Cy tie first in the first game (nothing caught), Bob and Cy
    in the second."""
    app = make_app(tmp_path)
    api = Api(app.test_client())
    play(api, api.new_game()["id"], "Ann", {"Bob": "K", "Cy": "", "Di": "5"}, 7)
    play(api, api.new_game()["id"], "Bob", {"Ann": "K", "Cy": "", "Di": "5"}, 7)
    api.new_game()  # not finished: not rated
    games = records.rated_games(store_of(app))
    assert [[players for players, _ in game.sides] for game in games] == [[[1], [2], [3], [4]]] * 2
    firsts = [{players[0] for players, place in game.sides if place == 1} for game in games]
    assert firsts == [{1, 3}, {2, 3}]
