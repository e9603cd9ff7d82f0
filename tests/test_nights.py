"""Nights: the money across games, the settlement, players' history, export, import and backup."""

import csv
import io
import json
import sqlite3
import threading
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import PLAYERS, csrf_token, examples, found, make_app, tie_game, words

from scorekeeper.rules.ledger import settle, settle_with_keeper, zero_sum_groups

# --- settlement: properties -----------------------------------------------------------------


def zero_sum_splits(nets):
    """Every way to split the players who owe or are owed into groups that each sum to zero."""

    def splits(rest):
        if not rest:
            yield []
            return
        first, others = rest[0], rest[1:]
        for mask in range(1 << len(others)):
            group = [first] + [others[i] for i in range(len(others)) if mask >> i & 1]
            if sum(nets[n] for n in group) == 0:
                for more in splits([o for o in others if o not in group]):
                    yield [group, *more]

    return splits([n for n in nets if nets[n]])


def brute_force_groups(nets):
    """The most zero-sum groups, by trying every way to split the players (small n only)."""
    return max(len(split) for split in zero_sum_splits(nets))


NETS = st.lists(st.integers(-40, 40), min_size=1, max_size=9).map(
    lambda values: {f"P{i}": v for i, v in enumerate(values + [-sum(values)])}
)


@settings(max_examples=examples(400), deadline=None)
@given(NETS)
def test_settlement_pays_every_net_exactly_with_fewest_payments(nets):
    order = list(nets)
    payments = settle(nets, order)
    balance = dict(nets)
    for p in payments:
        assert p.cents > 0 and p.from_player != p.to_player
        balance[p.from_player] += p.cents
        balance[p.to_player] -= p.cents
    assert all(v == 0 for v in balance.values())
    groups = zero_sum_groups(nets, order)
    owing = sum(1 for v in nets.values() if v)
    assert len(payments) <= owing - len(groups)
    if owing <= 8:
        assert len(groups) == brute_force_groups(nets)


@settings(max_examples=examples(200), deadline=None)
@given(NETS, st.randoms())
def test_settlement_is_stable_when_players_are_listed_in_another_order(nets, rng):
    order = list(nets)
    shuffled_items = list(nets.items())
    rng.shuffle(shuffled_items)
    assert settle(dict(shuffled_items), order) == settle(nets, order)


def payments_balance(nets, payments):
    balance = dict(nets)
    for p in payments:
        assert p.cents > 0 and p.from_player != p.to_player
        balance[p.from_player] += p.cents
        balance[p.to_player] -= p.cents
    return balance


@settings(max_examples=examples(300), deadline=None)
@given(NETS)
def test_the_near_minimal_method_settles_exactly_within_n_minus_1_and_finds_every_pair(nets):
    """Beyond 12 players the search is not exact: against brute force on small nights, it pays every
    net exactly, never uses more than (players − 1) payments, and is exact when no zero-sum group
    of three or more players exists (pairs only)."""
    from scorekeeper.rules.ledger import paired_groups

    order = list(nets)
    owing = [n for n in order if nets[n]]
    groups = paired_groups(nets, owing)
    assert sorted(n for g in groups for n in g) == sorted(owing)
    assert all(sum(nets[n] for n in g) == 0 for g in groups)
    payments = [p for g in groups for p in settle({n: nets[n] for n in g}, g)]
    assert all(v == 0 for v in payments_balance(nets, payments).values())
    assert len(payments) <= max(len(owing) - 1, 0)
    if len(owing) <= 8:
        best = len(owing) - brute_force_groups(nets)
        assert len(payments) >= best
        pairs = sum(1 for g in groups if len(g) == 2)
        if brute_force_groups(nets) == pairs + (1 if len(owing) > 2 * pairs else 0):
            assert len(payments) == best


def test_a_night_of_forty_players_settles_every_net():
    """More players than the exact search takes (a club night): answered, every net paid, the
    equal opposite nets in one payment each."""
    nets = {f"P{i:02}": (i % 7 + 1) * (1 if i % 2 else -1) for i in range(40)}
    nets["P39"] -= sum(nets.values())
    payments = settle(nets, list(nets))
    assert all(v == 0 for v in payments_balance(nets, payments).values())
    assert len(payments) <= 39
    assert ("P00", "P07", 1) in {(p.from_player, p.to_player, p.cents) for p in payments}


def test_settle_with_the_bowl_keeper():
    nets = {"Ann": 30, "Bob": -10, "Cy": -25, "Di": 5}
    payments = [(p.from_player, p.to_player, p.cents) for p in settle_with_keeper(nets, "Ann", list(nets))]
    assert payments == [("Bob", "Ann", 10), ("Cy", "Ann", 25), ("Ann", "Di", 5)]


def test_two_pairs_settle_in_two_payments():
    nets = {"Ann": 7, "Bob": -3, "Cy": 3, "Di": -7}
    payments = [(p.from_player, p.to_player, p.cents) for p in settle(nets, PLAYERS)]
    assert sorted(payments) == [("Bob", "Cy", 3), ("Di", "Ann", 7)]
    for order in permutations(PLAYERS):
        assert sorted((p.from_player, p.to_player, p.cents) for p in settle(nets, list(order))) == sorted(payments)


def canonical_groups_by_brute_force(nets):
    """The rule read literally: of all the splits of the players who owe or are owed into groups
    that each sum to zero, those with the most groups (the fewest payments); of those, the one whose
    groups, smallest first and then by their seats, come first."""
    seat = {name: index for index, name in enumerate(nets)}

    def key(split):
        return sorted((len(group), [seat[n] for n in group]) for group in split)

    every = list(zero_sum_splits(nets))
    most = max(len(split) for split in every)
    best = min((split for split in every if len(split) == most), key=key)
    return [group for _, group in sorted(((len(g), [seat[n] for n in g]), g) for g in best)]


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.integers(-6, 6), min_size=1, max_size=7).map(
        lambda values: {f"P{i}": v for i, v in enumerate(values + [-sum(values)])}
    )
)
def test_where_the_fewest_payments_go_several_ways_the_smallest_groups_take_the_first_seats(nets):
    assert zero_sum_groups(nets, list(nets)) == canonical_groups_by_brute_force(nets)


@pytest.mark.parametrize(
    "nets, expected",
    [
        # Two owed 3 and two owing 3, in seat order: the first who owes pays the first who is owed.
        ({"A": 3, "B": 3, "C": -3, "D": -3}, [("C", "A", 3), ("D", "B", 3)]),
        ({"A": -3, "B": -3, "C": 3, "D": 3}, [("A", "C", 3), ("B", "D", 3)]),
        # Neighbours that cancel settle between themselves.
        ({"A": 5, "B": -5, "C": 5, "D": -5, "E": 2, "F": -2}, [("B", "A", 5), ("D", "C", 5), ("F", "E", 2)]),
        # G owes 3 and two are owed 3 (B and E): G pays B, who sits first; the rest settle together.
        (
            {"A": 7, "B": 3, "C": 6, "D": 8, "E": 3, "F": -2, "G": -3, "H": -22},
            [("G", "B", 3), ("H", "D", 8), ("H", "A", 7), ("H", "C", 6), ("H", "E", 1), ("F", "E", 2)],
        ),
        # A pair hidden among nine (G pays C 3), found even though the rest is one big group.
        (
            {"A": -1, "B": 24, "C": 3, "D": 2, "E": 29, "F": 0, "G": -3, "H": 38, "I": -92},
            [("G", "C", 3), ("I", "H", 38), ("I", "E", 29), ("I", "B", 24), ("I", "D", 1), ("A", "D", 1)],
        ),
    ],
)
def test_where_payments_could_go_two_ways_players_settle_with_the_first_seats_they_can(nets, expected):
    """Worked by hand: the fewest payments; a debt that matches a credit exactly is paid directly,
    to the first such player in seat order; within a group the largest debtor pays the largest
    creditor first."""
    payments = [(p.from_player, p.to_player, p.cents) for p in settle(nets, list(nets))]
    assert sorted(payments) == sorted(expected)


# --- a night worked by hand -------------------------------------------------------------------


def test_a_night_with_a_tie_and_a_carried_penny(api, client):
    night = api.call("POST", "/api/nights", {"name": "Grandma's", "money": "paper"}, 201)["id"]
    first = tie_game(api, night)
    # 7 rounds × 3 cards = 21 pennies; Ann and Bob tie: 10 each, 1 penny stays in the bowl.
    assert (first["bowl"], first["payouts"], first["left_in_bowl"]) == (21, {"Ann": 10, "Bob": 10}, 1)
    second = tie_game(api, night)
    # The carried penny makes 22: 11 each, nothing left over.
    assert (second["bowl"], second["payouts"], second["left_in_bowl"]) == (22, {"Ann": 11, "Bob": 11}, 0)
    report = api.call("GET", f"/api/nights/{night}")
    # Ann: +10 +11 = 21; Bob the same; Cy paid 7 + 7 = 14; Di 14 + 14 = 28. 21 + 21 − 14 − 28 = 0.
    assert report["nets"] == {"Ann": 21, "Bob": 21, "Cy": -14, "Di": -28}
    assert report["left_in_bowls"] == 0
    assert [g["carry_in"] for g in report["games"]] == [0, 1]
    assert sorted((p["from"], p["to"], p["cents"]) for p in report["settlement"]) == [
        ("Cy", "Bob", 14),
        ("Di", "Ann", 21),
        ("Di", "Bob", 7),
    ]
    page = client.get(f"/nights/{night}").text
    assert "Every cent accounted for" in page and "Grandma&#39;s" in page
    explained = client.get(f"/nights/{night}/explain").text
    assert "took the bowl (11 pennies, shared by 2, with 1 carried in) <strong>+$0.11</strong>" in explained


def test_a_leftover_at_the_end_of_the_night_is_shown_in_the_bowl(api):
    night = api.call("POST", "/api/nights", {"money": "paper"}, 201)["id"]
    tie_game(api, night)
    report = api.call("GET", f"/api/nights/{night}")
    assert report["left_in_bowls"] == 1
    assert sum(report["nets"].values()) == -1
    # Ann +10, Bob +10, Cy −7, Di −14, and the bowl keeps 1: Di's penny stays there.
    assert sorted((p["from"], p["to"], p["cents"]) for p in report["settlement"]) == [
        ("Cy", "Bob", 7),
        ("Di", "Ann", 10),
        ("Di", "Bob", 3),
        ("Di", "the bowl", 1),
    ]


def test_a_correction_in_an_earlier_game_follows_through_the_carry(api):
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    first = tie_game(api, night)
    second = tie_game(api, night)
    assert second["bowl"] == 22
    # Correct game 1's last round: Cy caught with one card more → bowl 22, split 11/11, no carry.
    api.call(
        "PUT",
        f"/api/games/{first['id']}/rounds/7",
        {"went_out": "Ann", "caught": {"Bob": "", "Cy": "5 5", "Di": "5 5"}},
    )
    assert api.call("GET", f"/api/games/{second['id']}")["bowl"] == 21


def test_nights_refusals(api):
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    body = {"ruleset": "ten-pennies", "players": PLAYERS, "night": 99}
    assert "there is no night 99" in api.call("POST", "/api/games", body, 400)["error"]
    assert api.call("GET", "/api/nights/99", None, 404)["error"] == "there is no night 99"
    assert api.call("GET", f"/api/nights/{night}")["games"] == []  # the refused game went nowhere
    assert api.call("GET", "/api/games/1", None, 404)


# --- players across nights --------------------------------------------------------------------


def test_players_keep_their_identity_and_the_leaderboard_counts(api, client):
    tie_game(api, None)
    gid = api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": ["ann", "BOB", "Cy"]}, 201)["id"]
    for _ in range(7):
        api.round(gid, "Cy", {"ann": "K", "BOB": "5"})
    board = client.get("/players").text
    assert board.count(">Ann</a>") == 1  # "ann" is the same player
    assert board.count(">Cy</a>") == 1 and ">ann</a>" not in board
    page = client.get("/players/1").text
    assert "Game 1" in page and "Game 2" in page and "<svg" in page
    assert client.get("/players/99").status_code == 404


def test_leaderboard_numbers(api, app):
    tie_game(api, None)
    with app.app_context():
        from scorekeeper.store import get_store

        board = {row["name"]: row for row in get_store().leaderboard()}
    assert board["Ann"]["wins"] == 1 and board["Cy"]["wins"] == 0
    assert board["Cy"]["money"] == -7 and board["Ann"]["money"] == 10
    assert board["Di"]["points"] == 70 and board["Di"]["rounds"] == 7
    assert board["Di"]["lowest_round"] == 10 and board["Di"]["highest_round"] == 10


# --- export, import, backup ----------------------------------------------------------------------


def test_export_import_export_is_byte_identical(api, client, tmp_path, runner):
    night = api.call("POST", "/api/nights", {"name": "Zoë's"}, 201)["id"]
    tie_game(api, night)
    pfh = api.call(
        "POST",
        "/api/games",
        {"ruleset": "pennies-from-heaven", "players": PLAYERS, "teams": [["Ann", "Cy"], ["Bob", "Di"]], "night": night},
        201,
    )["id"]
    api.call(
        "POST",
        f"/api/games/{pfh}/rounds",
        {
            "went_out": None,
            "sides": [
                {"players": ["Ann", "Cy"], "melded": "K K K Q Q Q", "hands": {"Ann": "3S", "Cy": ""}},
                {"players": ["Bob", "Di"], "melded_points": 70, "hands": {"Bob": "", "Di": "JKR"}},
            ],
        },
        201,
    )
    api.buy(1, "Bob", 400)  # finished game: refused, nothing recorded
    first = tmp_path / "first.json"
    assert runner.invoke(args=["export", str(first)]).exit_code == 0
    night_export = client.get(f"/nights/{night}/export.json").data

    fresh = make_app(tmp_path / "fresh")
    result = fresh.test_cli_runner().invoke(args=["import", str(first)])
    assert result.exit_code == 0, result.output
    second = tmp_path / "second.json"
    assert fresh.test_cli_runner().invoke(args=["export", str(second)]).exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    assert fresh.test_client().get(f"/nights/{night}/export.json").data == night_export
    assert fresh.test_client().get("/api/games/1").get_json() == client.get("/api/games/1").get_json()
    again = fresh.test_cli_runner().invoke(args=["import", str(first)])
    assert again.exit_code != 0 and "already exists" in again.output


def test_csv_export(api, client):
    state = tie_game(api, None)
    text = client.get(f"/games/{state['id']}/export.csv").text
    lines = text.strip().splitlines()
    assert lines[0] == "game,ruleset,round,player,went_out,cards,points,pennies,buys,total,penny_cents,card_cents"
    assert len(lines) == 1 + 7 * 4
    assert "1,ten-pennies,1,Di,0,5 5,10,2,0,10,1,2" in lines


def test_csv_export_keeps_names_with_ampersands_commas_and_quotes(api, client):
    players = ["Ann & Bob", 'Zoë, "Z"', "O'Brien", '=HYPERLINK("http://e.x","y")']
    gid = api.new_game(players)["id"]
    api.buy(gid, "Ann & Bob")
    api.round(gid, "O'Brien", {"Ann & Bob": "K K", 'Zoë, "Z"': "5", players[3]: ""})
    rows = list(csv.DictReader(io.StringIO(client.get(f"/games/{gid}/export.csv").text)))
    by_player = {row["player"]: row for row in rows}
    # The buy belongs to "Ann & Bob" (one player, not "Ann" and "Bob"); a formula is neutralized.
    assert set(by_player) == {"Ann & Bob", 'Zoë, "Z"', "O'Brien", "'" + players[3]}
    assert (by_player["Ann & Bob"]["buys"], by_player["Ann & Bob"]["cards"], by_player["Ann & Bob"]["points"]) == (
        "1",
        "K K",
        "20",
    )
    assert by_player['Zoë, "Z"']["points"] == "5" and by_player["O'Brien"]["went_out"] == "1"


def test_backup_while_the_app_writes(app, api, tmp_path, runner):
    gid = api.new_game()["id"]
    stop = threading.Event()
    errors = []

    def keep_buying():
        client = app.test_client()
        while not stop.is_set():
            for name in PLAYERS:
                response = client.post(f"/api/games/{gid}/buys", json={"player": name})
                if response.status_code not in (201, 400):
                    errors.append(response.status_code)
            client.post(f"/api/games/{gid}/undo", json={"event": 1})

    writer = threading.Thread(target=keep_buying)
    writer.start()
    try:
        for i in range(3):
            target = tmp_path / f"backup-{i}.sqlite"
            result = runner.invoke(args=["backup", str(target)])
            assert result.exit_code == 0, result.output
            with sqlite3.connect(target) as conn:
                assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 1
    finally:
        stop.set()
        writer.join()
    assert errors == []


def test_import_refuses_what_is_not_an_export(runner, tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"hello": 1}))
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code != 0 and "not a Scorekeeper export" in result.output


def test_player_history_pages_through_older_games(api, client):
    for _ in range(23):
        gid = api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": ["Ann", "Bob"]}, 201)["id"]
        api.round(gid, "Ann", {"Bob": "K"})
    page = client.get("/players/1").text
    assert page.count('class="history-games"') == 1 and page.count("<li>") == 20
    assert "Game 23" in page and "Game 3<" not in page
    older = found(r'href="(/players/1\?before=\d+)"', page)
    rest = client.get(older).text
    assert rest.count("<li>") == 3 and "Game 3<" in rest and "Older games" not in rest


def test_a_paper_night_of_twenty_four_players_is_settled_on_the_page_and_in_the_api(api, client):
    """Three tables of eight in one night on paper: more players owe or are owed than the exact
    search takes. The page and the API answer with payments that settle every net, and changing
    the money mode answers too."""
    night = api.call("POST", "/api/nights", {"name": "Club", "money": "paper"}, 201)["id"]
    for table in range(3):
        players = [f"T{table}P{seat}" for seat in range(8)]
        gid = api.call(
            "POST",
            "/api/games",
            {"ruleset": "ten-pennies", "players": players, "night": night, "first_dealer": players[0]},
            201,
        )["id"]
        for _ in range(7):  # the first player goes out every round; each other is caught with a king
            api.round(gid, players[0], {name: "K" for name in players[1:]})
    report = api.call("GET", f"/api/nights/{night}")
    nets = report["nets"]
    assert sum(1 for value in nets.values() if value) == 24
    balance = dict(nets)
    for payment in report["settlement"]:
        balance[payment["from"]] += payment["cents"]
        balance[payment["to"]] -= payment["cents"]
    assert set(balance.values()) == {0}
    assert len(report["settlement"]) <= 23
    assert client.get(f"/nights/{night}").status_code == 200
    assert api.call("POST", f"/api/nights/{night}/money", {"money": "table"})["money"] == "table"


def test_a_second_pin_never_replaces_a_locked_nights_pin(api, client):
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    body = {"ruleset": "ten-pennies", "players": PLAYERS, "night": night, "pin": "1234"}
    api.call("POST", "/api/games", body, 201)
    token = api.call("POST", f"/api/nights/{night}/unlock", {"pin": "1234"})["token"]
    second = client.post("/api/games", json={**body, "pin": "9999"}, headers={"Authorization": f"Bearer {token}"})
    assert second.status_code == 201  # the game joins the night, under the night's one PIN
    assert client.post(f"/api/nights/{night}/unlock", json={"pin": "9999"}).status_code == 403
    assert client.post(f"/api/nights/{night}/unlock", json={"pin": "1234"}).status_code == 200


def test_not_paid_after_all_and_paid_after_all_on_the_night_page(api, client):
    night = api.call("POST", "/api/nights", {"money": "paper"}, 201)["id"]
    game = api.new_game(night=night)["id"]
    for _ in range(7):  # Ann goes out every round, the others are caught with a card: 7 pennies each
        api.round(game, "Ann", {"Bob": "K", "Cy": "5", "Di": "5"})
    players = {"from_bowl": False, "to_bowl": False}
    others = [{"from": "Cy", "to": "Ann", "cents": 7, **players}, {"from": "Di", "to": "Ann", "cents": 7, **players}]
    paid = api.call("POST", f"/api/nights/{night}/payments", {"from": "Bob", "to": "Ann", "cents": 7}, 201)
    payment = paid["payments_made"][0]["id"]
    assert api.call("GET", f"/api/nights/{night}")["still_owed"] == others
    page = client.get(f"/nights/{night}").text
    client.post(f"/nights/{night}/payments/{payment}", data={"csrf_token": csrf_token(page), "undone": "1"})
    report = api.call("GET", f"/api/nights/{night}")
    assert report["still_owed"] == [{"from": "Bob", "to": "Ann", "cents": 7, **players}, *others]
    assert report["payments_made"][0]["undone_at"]  # kept in the night's history, struck through
    page = client.get(f"/nights/{night}").text
    assert "not paid after all" in words(page) and "Paid after all" in page
    client.post(f"/nights/{night}/payments/{payment}", data={"csrf_token": csrf_token(page), "undone": "0"})
    report = api.call("GET", f"/api/nights/{night}")
    assert report["still_owed"] == others and report["payments_made"][0]["undone_at"] is None


def test_a_payment_taken_back_no_longer_marks_where_the_nets_stood(api, client):
    """The line "since the last payment was marked paid, the nets moved" measures from the last
    payment still marked paid: one taken back (not paid after all) no longer counts."""
    from test_money_modes import mark

    night = api.call("POST", "/api/nights", {"money": "paper"}, 201)["id"]
    first = tie_game(api, night)
    mark(client, night, "Di", "Ann", 10)
    fix = {"went_out": "Ann", "caught": {"Bob": "", "Cy": "5", "Di": "5 5 5"}}  # Di caught with one card more
    api.call("PUT", f"/api/games/{first['id']}/rounds/7", fix)
    moved = "the nets moved (a game was corrected or finished):\n  Ann +$0.01, Bob +$0.01, Di −$0.01, the bowl −$0.01."
    assert moved in words(client.get(f"/nights/{night}").text)
    mark(client, night, "Cy", "Bob", 7)  # marked after the correction: nothing moved since
    assert "the nets moved" not in words(client.get(f"/nights/{night}").text)
    payment = api.call("GET", f"/api/nights/{night}")["payments_made"][-1]["id"]
    page = client.get(f"/nights/{night}").text
    client.post(f"/nights/{night}/payments/{payment}", data={"csrf_token": csrf_token(page), "undone": "1"})
    assert moved in words(client.get(f"/nights/{night}").text)  # back to Di's payment, before the correction


def test_a_night_holding_an_impossible_history_is_replayed_at_start(app, api, tmp_path):
    """An upgrade or an import replays whole nights at start-up; a game stored by an earlier version
    with entries the rules refuse (11 buys of a 10-buy stack) is replayed without them, as it is shown."""
    from support import make_app

    from scorekeeper.store import Store

    night = api.call("POST", "/api/nights", {}, 201)["id"]
    gid = api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": PLAYERS, "night": night}, 201)["id"]
    store = Store(app.config["DATABASE"])
    for version in range(11):  # straight into the store, past the engine's checks
        store.append_event(gid, "buy", {"round": 1, "player": "Ann"}, version, store.next_event_id())
    store.mark_night_stale(night)
    restarted = make_app(tmp_path).test_client()
    assert restarted.get(f"/api/nights/{night}").status_code == 200
    assert restarted.get(f"/api/games/{gid}").get_json()["bowl"] == 10  # the 11th buy passed over
