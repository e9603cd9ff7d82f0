"""Issue 29: players' records, head to head, seasons and the opt-in rating, on a history worked by
hand. The history: three months, four rulesets, a tie, a team game of Pennies From Heaven, a game
of a night that runs past midnight into another month, a correction of a finished game and a
player written "ann" as well as "Ann". Every figure below is worked from the rules, not read back."""

from __future__ import annotations

import re
import time
from datetime import date, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import PLAYERS, Api, csrf_token, found, make_app, words
from test_cousins import PFH_HANDS, TEAMS

from scorekeeper.rules.records import (
    GameLine,
    Streak,
    Tally,
    Versus,
    by_period,
    cover,
    favourite_victim,
    months_back,
    total,
    toughest_opponent,
)
from scorekeeper.rules.rulesets import Winner
from scorekeeper.store import Store, exchange

# --- the arithmetic ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "wins, longest, first, last",
    [
        ("", 0, 0, 0),
        ("W", 1, 1, 1),
        ("L", 0, 0, 0),
        ("WWLWWW", 3, 2, 3),
        ("LWWWL", 3, 0, 0),
        ("WLW", 1, 1, 1),
        ("WWWW", 4, 4, 4),
        ("LLWWLWWWWLW", 4, 0, 1),
    ],
)
def test_a_winning_streak_is_the_longest_run_of_wins(wins, longest, first, last):
    streak = Streak.of([c == "W" for c in wins])
    assert (streak.games, streak.longest, streak.first, streak.last) == (len(wins), longest, first, last)


@given(st.lists(st.booleans(), max_size=30), st.integers(min_value=0, max_value=30))
def test_streaks_of_days_join_to_the_streak_of_the_season(wins, cut):
    """Days added up in order give the same streak as the games one by one (a run over midnight too)."""
    cut = min(cut, len(wins))
    runs = "".join("W" if w else "L" for w in wins).split("L")
    assert (Streak.of(wins[:cut]) + Streak.of(wins[cut:])).longest == max(len(run) for run in runs)
    assert Streak.of(wins[:cut]) + Streak.of(wins[cut:]) == Streak.of(wins)


def days_in(low: str, high: str) -> list[date]:
    """Every day of a covered period range ("2026", "2026-11" or "2026-11-21" keys)."""
    first = date.fromisoformat(low + "-01-01"[len(low) - 4 :] if len(low) < 10 else low)
    if len(high) == 4:
        last = date(int(high), 12, 31)
    elif len(high) == 7:
        last = date(int(high[:4]) + int(high[5:]) // 12, int(high[5:]) % 12 + 1, 1) - timedelta(days=1)
    else:
        last = date.fromisoformat(high)
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


@given(st.dates(date(1999, 1, 1), date(2031, 12, 31)), st.dates(date(1999, 1, 1), date(2031, 12, 31)), st.booleans())
def test_a_season_is_covered_by_its_periods_exactly_once(start, end, years):
    """Whole years, whole months and days: every day of the season once, no day outside, oldest first."""
    ranges = cover(start, end, years)
    covered = [day for low, high in ranges for day in days_in(low, high)]
    expected = [start + timedelta(days=n) for n in range((end - start).days + 1)]
    assert covered == expected
    assert len(ranges) <= 5 and all(len(low) == len(high) for low, high in ranges)
    assert years or all(len(low) > 4 for low, _ in ranges)


def test_a_long_season_is_a_few_periods():
    assert cover(date(2025, 11, 15), date(2028, 2, 10)) == [
        ("2025-11-15", "2025-11-30"),
        ("2025-12", "2025-12"),
        ("2026", "2027"),
        ("2028-01", "2028-01"),
        ("2028-02-01", "2028-02-10"),
    ]


def periods_day_by_day(start: date, end: date, years: bool) -> list[tuple[str, str]]:
    """The rule read day by day: a day lies in a whole year of the season (when years are kept), else
    in a whole month of it, else it stands alone; neighbouring days of the same kind make one period."""

    def kind(day: date) -> str:
        year_in = date(day.year, 1, 1) >= start and date(day.year, 12, 31) <= end
        month_last = (day.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
        if years and year_in:
            return "year"
        return "month" if day.replace(day=1) >= start and month_last <= end else "day"

    keys = {"year": lambda d: f"{d.year:04d}", "month": lambda d: d.isoformat()[:7], "day": date.isoformat}
    periods: list[tuple[str, str, str]] = []
    for n in range((end - start).days + 1):
        day = start + timedelta(days=n)
        label, key = kind(day), keys[kind(day)](day)
        if periods and periods[-1][0] == label:
            periods[-1] = (label, periods[-1][1], key)
        else:
            periods.append((label, key, key))
    return [(low, high) for _, low, high in periods]


@given(st.dates(date(1999, 1, 1), date(2004, 12, 31)), st.integers(0, 1500), st.booleans())
def test_a_season_is_covered_by_the_fewest_periods(start, length, years):
    end = start + timedelta(days=length)
    assert cover(start, end, years) == periods_day_by_day(start, end, years)


@pytest.mark.parametrize(
    "start, end, years, expected",
    [
        (date(2026, 1, 1), date(2026, 12, 31), True, [("2026", "2026")]),
        (date(2026, 1, 1), date(2026, 12, 31), False, [("2026-01", "2026-12")]),
        (
            date(2025, 12, 31),
            date(2027, 1, 1),
            True,
            [("2025-12-31", "2025-12-31"), ("2026", "2026"), ("2027-01-01", "2027-01-01")],
        ),
        (
            date(2026, 1, 2),
            date(2026, 12, 30),
            True,
            [("2026-01-02", "2026-01-31"), ("2026-02", "2026-11"), ("2026-12-01", "2026-12-30")],
        ),
        (date(2026, 2, 1), date(2026, 2, 28), True, [("2026-02", "2026-02")]),
        (date(2026, 11, 21), date(2026, 11, 21), True, [("2026-11-21", "2026-11-21")]),
    ],
)
def test_periods_at_the_edges_of_years_and_months(start, end, years, expected):
    assert cover(start, end, years) == expected


@pytest.mark.parametrize(
    "day, months, first_of_month",
    [
        ("2026-11-21", 23, "2024-12-01"),
        ("2026-11-21", 0, "2026-11-01"),
        ("2026-01-31", 1, "2025-12-01"),
        ("2026-12-01", 11, "2026-01-01"),
        ("2026-12-31", 12, "2025-12-01"),
        ("2000-03-10", 26, "1998-01-01"),
    ],
)
def test_months_back_counts_whole_months_to_the_first_day(day, months, first_of_month):
    assert months_back(day, months) == first_of_month


def test_a_favourite_victim_is_by_share_then_by_games_never_one_not_beaten():
    """The share of games ahead, not the count: 4 of 5 beats 5 of 10; equal shares go to more games
    together (6 of 10 against 3 of 5); a player never beaten is no victim at all."""
    assert favourite_victim({"Bob": Versus(5, 4, 1), "Di": Versus(10, 5, 5)}) == "Bob"
    assert favourite_victim({"Bob": Versus(5, 3, 2), "Di": Versus(10, 6, 4)}) == "Di"
    assert favourite_victim({"Bob": Versus(5, 0, 5)}) is None
    assert toughest_opponent({"Bob": Versus(6, 6, 0)}) is None


def line(won: bool, money: int = 0, caught: tuple[int, ...] = (), best: int = 0, worst: int = 0) -> GameLine:
    return GameLine(won, len(caught), sum(caught), money, best, worst, 0, 0, caught)


def test_tallies_add_up_money_rounds_and_the_hardest_round():
    # Round 2 caught 3 + 1 cards in two games (2 on average), round 1 once 2 cards, round 3 2 + 2: rounds
    # 2 and 3 tie at 2 on average, round 2 is the earlier.
    days = [
        ("2026-09-30", Tally.of([line(True, 25, (0, 3, 2), best=0, worst=30)])),
        ("2026-10-01", Tally.of([line(False, -7, (2, 1, 2), best=5, worst=20)])),
    ]
    season = total(t for _, t in days)
    assert (season.games, season.wins, season.money_cents, season.rounds) == (2, 1, 18, 6)
    assert season.hardest_round() == 2 and season.caught[2] == (4, 2)
    assert season.best_round(Winner.LOWEST) == 0 and season.worst_round(Winner.LOWEST) == 30
    assert season.best_round(Winner.HIGHEST) == 30 and season.worst_round(Winner.HIGHEST) == 0
    assert season.win_rate == Fraction(1, 2)
    assert by_period(days, 7) == [("2026-09", days[0][1]), ("2026-10", days[1][1])]
    assert [(y, t.money_cents) for y, t in by_period(days, 4)] == [("2026", 18)]


def test_toughest_opponent_and_favourite_victim_need_five_games():
    rivals = {
        "Bob": Versus(games=5, ahead=1, behind=3),
        "Cy": Versus(games=4, ahead=4, behind=0),  # four games: not enough
        "Di": Versus(games=10, ahead=6, behind=4),
    }
    assert toughest_opponent(rivals) == "Bob"  # 3 of 5 ahead of this player, against Di's 4 of 10
    assert favourite_victim(rivals) == "Di"  # 6 of 10 against Bob's 1 of 5
    assert toughest_opponent({"Cy": Versus(4, 0, 4)}) is None


# --- the history ---------------------------------------------------------------------------------------


def rounds(api: Api, gid: int, went_out: str, caught: dict[str, str], count: int) -> None:
    for _ in range(count):
        api.round(gid, went_out, caught)


def new(api: Api, ruleset: str, players: list[str], **more: Any) -> int:
    body = {"ruleset": ruleset, "players": players, "first_dealer": players[0], **more}
    return int(api.call("POST", "/api/games", body, 201)["id"])


def build_history(folder: Path) -> dict[str, Any]:
    """The games on one app, then exported, dated and imported into a fresh database (an import keeps
    dates; the API stamps the time of the request)."""
    played = make_app(folder / "played")
    api = Api(played.test_client())
    # G1, 10 Sep, Ten Pennies: Ann out every round; Bob K (10 pts, 1 p), Cy 5 5 5 (15, 3 p), Di nothing.
    # Ann and Di tie on 0 and share the bowl of 7 + 21 = 28: +14 each; Bob −7, Cy −21.
    g1 = new(api, "ten-pennies", PLAYERS)
    rounds(api, g1, "Ann", {"Bob": "K", "Cy": "5 5 5", "Di": ""}, 7)
    # G2, 30 Sep, Ten Pennies: Bob buys once in round 1 (a penny into the bowl); Ann out every round;
    # Bob K (70 pts), Cy 5 (35), Di 5 (35). Ann takes 21 + 1 = 22; Bob −8, Cy −7, Di −7.
    g2 = new(api, "ten-pennies", PLAYERS)
    api.buy(g2, "Bob")
    rounds(api, g2, "Ann", {"Bob": "K", "Cy": "5", "Di": "5"}, 7)
    # G3, a night that began 31 Oct at 20:00 and a game started 1 Nov at 01:00: it counts in October.
    # Bob out every round; Ann K K (20, 2 p), Cy 5 5 5 5 (20, 4 p), Di 5 (5, 1 p) — then round 1 is
    # corrected after the game ended: Di had 5 5. Bowl 7 × 7 + 1 = 50 for Bob; Ann −14, Cy −28, Di −8.
    night = api.call("POST", "/api/nights", {"name": "Halloween"}, 201)["id"]
    g3 = new(api, "ten-pennies", PLAYERS, night=night)
    rounds(api, g3, "Bob", {"Ann": "K K", "Cy": "5 5 5 5", "Di": "5"}, 7)
    fixed = {"went_out": "Bob", "caught": {"Ann": "K K", "Cy": "5 5 5 5", "Di": "5 5"}}
    api.call("PUT", f"/api/games/{g3}/rounds/1", fixed)
    # G4, 15 Nov, Ten Card Rummy (no money): Bob out in all 11 rounds; Ann caught with a king (10),
    # Cy a 3 (3), Di a 4 (4) each time: Bob 0, Cy 33, Di 44, Ann 110.
    g4 = new(api, "ten-card-rummy", PLAYERS)
    rounds(api, g4, "Bob", {"Ann": "K", "Cy": "3", "Di": "4"}, 11)
    # G5, 20 Nov, Pennies From Heaven in teams: Ann & Cy beat Bob & Di (8,940 to 4,445; test_cousins).
    g5 = new(api, "pennies-from-heaven", PLAYERS, teams=TEAMS)
    for went_out, sides in PFH_HANDS:
        api.call("POST", f"/api/games/{g5}/rounds", {"went_out": went_out, "sides": sides}, 201)
    # G6, 21 Nov, the virtual-tabletop Ten Pennies, Ann written "ann": Cy out every round; ann 5H
    # (5 pts, 1 p), Bob KS (10, 1 p). Cy takes 14; ann −7, Bob −7.
    g6 = new(api, "ten-pennies-pcio", ["ann", "Bob", "Cy"])
    rounds(api, g6, "Cy", {"ann": "5H", "Bob": "KS"}, 7)
    days = {g1: "09-10T12", g2: "09-30T12", g3: "11-01T01", g4: "11-15T12", g5: "11-20T12", g6: "11-21T12"}
    dates = {game: f"2026-{day}:00:00+00:00" for game, day in days.items()}
    with played.app_context():
        data = exchange.dump(Store(played.config["DATABASE"]))
    for game in data["games"]:
        game["created_at"] = dates[game["id"]]
    data["nights"][0]["created_at"] = "2026-10-31T20:00:00+00:00"
    return {"data": data, "games": [g1, g2, g3, g4, g5, g6]}


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return build_history(tmp_path_factory.mktemp("history"))


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's day is taken in the server's time zone: the history's days are worked in UTC; and
    "today" is the end of November 2026, so the months of a season without an end never age."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    monkeypatch.setattr("scorekeeper.players.records.today", lambda: date(2026, 11, 30))


def imported(folder: Path, data: dict[str, Any], **config: Any) -> Api:
    from scorekeeper.commands.derived import import_dump
    from scorekeeper.web import current_catalog

    app = make_app(folder, **config)
    with app.app_context():
        import_dump(Store(app.config["DATABASE"]), current_catalog(), data)
    return Api(app.test_client())


@pytest.fixture
def api_of_history(tmp_path: Path, history: dict[str, Any]) -> Api:
    return imported(tmp_path / "house", history["data"])


def ids(api: Api) -> dict[str, int]:
    return {p["name"]: p["id"] for p in api.call("GET", "/api/players")}


def test_the_players_are_listed_once_whatever_their_spelling(api_of_history: Api):
    assert sorted(ids(api_of_history)) == ["Ann", "Bob", "Cy", "Di"]  # "ann" is Ann


def test_anns_record_over_every_game(api_of_history: Api):
    ann = api_of_history.call("GET", f"/api/players/{ids(api_of_history)['Ann']}")
    # Won G1 (a tie), G2 and G5 (with Cy); lost G3, G4, G6. In order: W W L L W L.
    assert (ann["games"], ann["wins"], ann["win_rate"], ann["longest_streak"]) == (6, 3, 0.5, 2)
    # +14 +22 −14 (0) (0) −7
    assert ann["money_cents"] == 15
    assert ann["money_by_month"] == [
        {"month": "2026-09", "money_cents": 36},
        {"month": "2026-10", "money_cents": -14},  # G3: its night began on 31 October
        {"month": "2026-11", "money_cents": -7},
    ]
    assert ann["money_by_year"] == [{"year": "2026", "money_cents": 15}]
    assert ann["points_per_round"] is None  # never averaged across rulesets
    assert "rating" not in ann  # off until the house switches it on


def test_anns_record_in_ten_pennies(api_of_history: Api):
    ann = api_of_history.call("GET", f"/api/players/{ids(api_of_history)['Ann']}?ruleset=ten-pennies")
    assert (ann["games"], ann["wins"], ann["longest_streak"], ann["money_cents"]) == (3, 2, 2, 22)
    assert ann["win_rate"] == round(2 / 3, 4)
    # 0 + 0 + 7 × 20 = 140 points over 21 rounds; her best round 0, her worst 20 (K K).
    assert ann["points_per_round"] == round(140 / 21, 4)
    assert (ann["best_round"], ann["worst_round"]) == (0, 20)
    assert ann["went_out"] == 14 and ann["rounds"] == 21
    # Caught with 2 cards in every round of G3 only: every round ties, round 1 (2 sets of 3) is named.
    assert ann["hardest_round"] == {"round": 1, "contract": "2 sets of 3", "cards": 2, "times": 3}


def test_bobs_buys_and_the_correction_of_a_finished_game(api_of_history: Api):
    bob = api_of_history.call("GET", f"/api/players/{ids(api_of_history)['Bob']}?ruleset=ten-pennies")
    # −7, −8, then G3's bowl after the correction: 50 (49 before it).
    assert bob["money_cents"] == 35 and bob["buys_per_game"] == round(1 / 3, 4)
    di = api_of_history.call("GET", f"/api/players/{ids(api_of_history)['Di']}?ruleset=ten-pennies")
    assert di["money_cents"] == 14 - 7 - 8 and di["wins"] == 1


def test_a_season_of_dates(api_of_history: Api):
    ann_id = ids(api_of_history)["Ann"]
    october = api_of_history.call("GET", f"/api/players/{ann_id}?from=2026-10-01&to=2026-10-31")
    assert (october["games"], october["wins"], october["money_cents"]) == (1, 0, -14)
    november = api_of_history.call("GET", f"/api/players/{ann_id}?from=2026-11-01&to=2026-11-30")
    assert (november["games"], november["wins"], november["money_cents"]) == (3, 1, -7)  # G4, G5, G6
    # Cut through two months: G2 (won, +22), G3 (−14), G4 (lost, no money).
    cut = api_of_history.call("GET", f"/api/players/{ann_id}?from=2026-09-15&to=2026-11-16")
    assert (cut["games"], cut["wins"], cut["money_cents"], cut["longest_streak"]) == (3, 1, 8, 1)
    assert cut["money_by_month"] == [
        {"month": "2026-09", "money_cents": 22},
        {"month": "2026-10", "money_cents": -14},
        {"month": "2026-11", "money_cents": 0},
    ]
    year = api_of_history.call("GET", f"/api/players/{ann_id}?year=2026")
    assert year["games"] == 6
    assert api_of_history.call("GET", f"/api/players/{ann_id}?year=2025")["games"] == 0


@pytest.mark.parametrize(
    "query, message",
    [
        ("year=26", "'26' is not a year"),
        ("from=2026-13-01", "from '2026-13-01' is not a date"),
        ("from=2026-11-02&to=2026-11-01", "starts (2026-11-02) after it ends (2026-11-01)"),
        ("year=2026&from=2026-01-01", "a year or a range of dates"),
        ("ruleset=gin", "there is no ruleset 'gin'"),
        ("ruleset=" + "x" * 200, "ruleset is too long"),
    ],
)
def test_a_filter_that_cannot_be_read_is_named(api_of_history: Api, query, message):
    answer = api_of_history.call("GET", f"/api/players/1?{query}", status=400)
    assert message in answer["error"]


def test_head_to_head(api_of_history: Api):
    named = ids(api_of_history)
    ann_bob = api_of_history.call("GET", f"/api/players/{named['Ann']}/versus/{named['Bob']}")
    # G1 ahead, G2 ahead, G3 behind, G4 behind, G5 ahead (sides), G6 ahead (5 against 10).
    # Money, Ann's minus Bob's: 21 + 30 − 64 + 0 + 0 + 0 = −13.
    assert {k: ann_bob[k] for k in ("games", "ahead", "behind", "money_cents")} == {
        "games": 6,
        "ahead": 4,
        "behind": 2,
        "money_cents": -13,
    }
    ann_cy = api_of_history.call("GET", f"/api/players/{named['Ann']}/versus/{named['Cy']}")
    # Partners in G5 are not against each other: G1 ahead, G2 ahead, G3 level (140 each), G4 behind,
    # G6 behind. Money: 35 + 29 + 14 + 0 − 21 = 57.
    assert {k: ann_cy[k] for k in ("games", "ahead", "behind", "level", "money_cents")} == {
        "games": 5,
        "ahead": 2,
        "behind": 2,
        "level": 1,
        "money_cents": 57,
    }
    bob_ann = api_of_history.call("GET", f"/api/players/{named['Bob']}/versus/{named['Ann']}")
    assert (bob_ann["ahead"], bob_ann["behind"], bob_ann["money_cents"]) == (2, 4, 13)
    ann = api_of_history.call("GET", f"/api/players/{named['Ann']}")
    # Ahead of Ann: Bob in 2 of 6, Cy in 2 of 5, Di in 2 of 5 (G3, G4; level in G1): Cy and Di tie,
    # on games too, and Cy comes first by name. Behind Ann: Bob in 4 of 6, Cy and Di in 2 of 5.
    assert (ann["toughest_opponent"], ann["favourite_victim"]) == ("Cy", "Bob")
    # Everyone she met, most games first (then by name): Bob 6, Cy 5, Di 5.
    assert [(o["name"], o["games"], o["ahead"], o["behind"]) for o in ann["opponents"]] == [
        ("Bob", 6, 4, 2),
        ("Cy", 5, 2, 2),
        ("Di", 5, 2, 2),
    ]


def test_the_season_leaderboard_and_its_summary(api_of_history: Api):
    page = api_of_history.client.get("/players?ruleset=ten-pennies&year=2026").text
    # Ann 2 wins; Bob 1 win and +$0.35; Di 1 win and −$0.01; Cy none.
    order = [page.index(f">{name}</a>") for name in ("Ann", "Bob", "Di", "Cy")]
    assert order == sorted(order)
    assert "Most money: <strong>Bob</strong> (+$0.35)" in page
    assert "Longest winning streak: <strong>Ann</strong> (2 games)" in page
    pdf = api_of_history.client.get("/players/season.pdf?ruleset=ten-pennies&year=2026")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    from support import pdf_tables, table_row

    tables = pdf_tables(pdf.data)
    # Bob: 70 + 70 + 0 points over 21 rounds; won G3 only (L L W: a streak of 1).
    assert table_row(tables, "Bob")[1:] == ["3", "1", "33%", "1", "6.7", "+$0.35"]


def test_the_player_page_shows_the_same_figures(api_of_history: Api):
    page = api_of_history.client.get(f"/players/{ids(api_of_history)['Ann']}?ruleset=ten-pennies").text
    for figure in (
        "<dd>3</dd>",
        '2 <span class="muted">(67%)</span>',
        "<dd>2 games</dd>",
        "+$0.22",
        "Round 1 (2 sets of 3): 2 cards caught in 3 games",
        "<dd>6.7</dd>",
    ):
        assert figure in page, figure
    assert "Rating" not in page and "rating" not in page.lower().split("<h2>games</h2>")[0]
    assert 'role="img"' in page  # the money chart: three days played


# --- the opt-in rating -----------------------------------------------------------------------------------


def ratings(api: Api) -> dict[str, Any]:
    """Every player's rating once the worker has counted every change (it works off the requests)."""
    worker = api.client.application.extensions.get("ratings")
    if worker is not None:
        worker.nudge()  # an import on the command line tells no worker
        assert worker.wait(60)
    return {name: api.call("GET", f"/api/players/{pid}").get("rating") for name, pid in ids(api).items()}


def test_the_rating_is_off_until_the_house_switches_it_on(api_of_history: Api, tmp_path: Path, history):
    assert set(ratings(api_of_history).values()) == {None}
    assert api_of_history.client.post("/players/1/rating", data={"rated": "0"}).status_code in (400, 404)
    rated = imported(tmp_path / "rated", history["data"], RATING=True)
    found = ratings(rated)
    assert found["Ann"]["games"] == 6 and found["Di"]["games"] == 5  # Di did not play G6
    assert all(r["sigma"] < 8.34 for r in found.values())  # less unsure than a new player (8.33)


def test_the_rating_stays_consistent_after_a_correction_of_an_old_game(tmp_path: Path, history):
    """Correct G1 (Bob went out in round 1, not Ann): the ratings equal those of a house that had the
    corrected history from the start."""
    house = imported(tmp_path / "house", history["data"], RATING=True)
    before = ratings(house)
    g1 = history["games"][0]
    fixed = {"went_out": "Bob", "caught": {"Ann": "JKR", "Cy": "5 5 5", "Di": ""}}
    house.call("PUT", f"/api/games/{g1}/rounds/1", fixed)
    after = ratings(house)
    assert after != before
    with house.client.application.app_context():
        corrected = exchange.dump(Store(house.client.application.config["DATABASE"]))
    fresh = imported(tmp_path / "fresh", corrected, RATING=True)
    assert ratings(fresh) == after


def test_a_player_left_out_of_the_rating(tmp_path: Path, history):

    house = imported(tmp_path / "house", history["data"], RATING=True)
    di = ids(house)["Di"]
    page = house.client.get(f"/players/{di}").text
    assert "Leave Di out of the rating" in page
    form = {"csrf_token": csrf_token(page), "rated": "0"}
    assert house.client.post(f"/players/{di}/rating", data=form).status_code == 302
    assert ratings(house)["Di"] == {"left_out": True}
    assert "Di is left out of the rating" in house.client.get(f"/players/{di}").text
    # The others are rated as if Di had not played: G1 without her is Ann first, Bob, Cy.
    assert ratings(house)["Ann"]["games"] == 6 and ratings(house)["Bob"]["games"] == 6
    form = {"csrf_token": csrf_token(house.client.get(f"/players/{di}").text), "rated": "1"}
    assert house.client.post(f"/players/{di}/rating", data=form).status_code == 302
    assert ratings(house)["Di"]["games"] == 5


def test_the_rating_is_never_on_the_live_or_table_views(tmp_path: Path, history):
    house = imported(tmp_path / "house", history["data"], RATING=True)
    g1 = history["games"][0]
    for path in (f"/games/{g1}/table", f"/games/{g1}/table/state"):
        assert "rating" not in house.client.get(path).text.lower()


@pytest.mark.parametrize(
    "first, later, lowest, highest",
    [
        ((None, None), (40, 90), 40, 90),  # a tally with no rounds yet takes the other's
        ((40, 90), (None, None), 40, 90),
        ((40, 90), (10, 60), 10, 90),  # the lower of the lowest rounds, the higher of the highest
        ((10, 60), (40, 90), 10, 90),
    ],
)
def test_tallies_added_keep_the_lowest_and_highest_round(first, later, lowest, highest):
    from scorekeeper.rules.records import Tally

    total = Tally(lowest_round=first[0], highest_round=first[1]) + Tally(lowest_round=later[0], highest_round=later[1])
    assert (total.lowest_round, total.highest_round) == (lowest, highest)


def test_the_player_page_lists_a_game_on_the_day_it_counts_under_its_rulesets_name(
    api_of_history: Api, history: dict[str, Any]
):
    """Issue 39/40: G3 was begun after midnight UTC in a night that began on 31 October: the record
    counts it on the 31st, and so does the list (it showed the 1st, from the UTC timestamp); a
    ruleset is named as the table names it, and a game played for no money shows no "$0.00"."""
    ann = ids(api_of_history)["Ann"]
    page = api_of_history.client.get(f"/players/{ann}").text
    g3, g4 = history["games"][2], history["games"][3]
    assert re.search(rf"<strong>Game {g3}</strong></a> · Ten Pennies · 2026-10-31\s", page)
    listed = re.search(rf"<strong>Game {g4}</strong></a> · Ten Card Rummy · 2026-11-15[^<]*", page)
    assert listed and "$" not in listed.group(0)


def test_the_months_shown_are_the_seasons_last_24_ending_at_its_end(tmp_path: Path, history: dict[str, Any]):
    """The README: money "by month for the last 24 months of the season". A season to the end of 2026:
    January 2025 to December 2026, though Ann last played in November (a game of December 2024 falls
    out; it was shown, as the 24 months ended at her last game)."""
    data = {**history["data"], "games": [dict(game) for game in history["data"]["games"]]}
    data["games"][0]["created_at"] = "2024-12-10T12:00:00+00:00"  # G1: Ann +14
    api = imported(tmp_path / "house", data)
    ann = api.call("GET", f"/api/players/{ids(api)['Ann']}?from=2024-01-01&to=2026-12-31")
    assert [month["month"] for month in ann["money_by_month"]] == ["2026-09", "2026-10", "2026-11"]
    assert ann["money_by_year"] == [{"year": "2024", "money_cents": 14}, {"year": "2026", "money_cents": 1}]


def test_the_leaderboard_ranks_equal_wins_by_rate_then_points_never_by_name(api: Api, client):
    """Issue 40: rows tied on wins were listed by name. Ten Card Rummy plays for no money, so after
    wins come the better win rate (fewer games for as many wins), then fewer points a round (lowest
    wins); names only last. Zed: 1 win in 1 game. Ola and Amy: 1 win in 2 games, Ola 2.5 points a
    round, Amy 5. No win: Yan 5 points a round; Abe, Pat and Quin 10 (by name); Kim 20."""

    def game(players: list[str], out: str, caught: dict[str, str]) -> None:
        gid = api.new_game(players, ruleset="ten-card-rummy")["id"]
        for _ in range(11):
            api.round(gid, out, caught)

    game(["Zed", "Abe", "Yan", "Kim"], "Zed", {"Abe": "K", "Yan": "5", "Kim": "K K"})
    game(["Amy", "Ola", "Pat", "Quin"], "Amy", {"Ola": "5", "Pat": "K", "Quin": "K"})
    game(["Amy", "Ola", "Pat", "Quin"], "Ola", {"Amy": "K", "Pat": "K", "Quin": "K"})
    expected = ["Zed", "Ola", "Amy", "Yan", "Abe", "Pat", "Quin", "Kim"]
    board = client.get("/players").text
    assert re.findall(r'href="/players/\d+">(\w+)</a>', board) == expected
    season = client.get("/players?ruleset=ten-card-rummy").text
    assert re.findall(r'href="/players/\d+[^"]*">(\w+)</a>', season)[:8] == expected


def test_a_players_best_round_is_the_fewest_points_when_lowest_wins(api, client):
    # Ten Pennies (lowest wins; 3–9 = 5, K = 10, A = 20). Ann goes out every round; Bob is caught
    # with K K (20) every round; Cy with K (10), A (20), 3 (5), then nothing: best 0, worst 20.
    cy = ["K", "A", "3", "", "", "", ""]
    game = api.new_game()["id"]
    for hand in cy:
        api.round(game, "Ann", {"Bob": "K K", "Cy": hand, "Di": ""})
    board = client.get("/players").text
    cy_page = found(r'href="(/players/\d+)"[^>]*>Cy<', board)
    page = words(client.get(cy_page).text)
    assert re.search(r"Best round 0, worst 20\s", page), page


def test_the_hardest_round_is_by_the_average_not_the_total():
    """Caught with 6 cards over 3 plays of round 1 (2 a time) is easier than 4 in one play of round 2;
    rounds 2 and 3 tie at 4, and the earlier is named."""
    from scorekeeper.rules.records import Tally

    assert Tally(caught={1: (6, 3), 2: (4, 1), 3: (4, 1)}).hardest_round() == 2
    assert Tally(caught={1: (0, 2)}).hardest_round() is None  # never caught with a card
