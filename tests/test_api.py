"""A whole Ten Pennies game through the JSON API, and every refusal it can give."""

import sqlite3

import pytest
from support import GAME, PLAYERS

POINTS = {
    "ten-pennies": {
        "K": 10,
        "7": 5,
        "2": 20,
        "JKR": 50,
        "A": 20,
        "3": 5,
        "10": 10,
        "J": 10,
        "Q": 10,
        "5": 5,
        "4": 5,
        "9": 5,
        "8": 5,
        "6": 5,
    }
}


def expected_totals():
    totals = dict.fromkeys(PLAYERS, 0)
    for _, caught in GAME:
        for name, hand in caught.items():
            totals[name] += sum(POINTS["ten-pennies"][c] for c in hand.split())
    return totals


def test_whole_game_through_the_api(api):
    game = api.new_game()
    gid = game["id"]
    assert game["round"] == 1 and game["bowl"] == 0 and game["version"] == 0
    api.buy(gid, "Bob")
    api.buy(gid, "Di")
    for went_out, caught in GAME:
        state = api.round(gid, went_out, caught)
    assert state["finished"] and state["round"] is None
    totals = expected_totals()
    assert {p["name"]: p["points"] for p in state["players"]} == totals
    card_pennies = sum(len(h.split()) for _, c in GAME for h in c.values())
    assert state["bowl"] == card_pennies + 2
    best = min(totals.values())
    winners = [n for n in PLAYERS if totals[n] == best]
    assert state["winners"] == winners
    assert sum(state["payouts"].values()) + state["left_in_bowl"] == state["bowl"]
    assert sum(state["money"].values()) + state["left_in_bowl"] == 0
    assert state["rounds"][0]["buys"] == {"Ann": 0, "Bob": 1, "Cy": 0, "Di": 1}
    assert state["rounds"][0]["results"]["Cy"] == {
        "cards": ["JKR", "A", "3"],
        "points": 75,
        "pennies": 3,
        "penalty": 0,
        "bonus": 0,
        "cut_bonus": 0,
    }
    assert [r["dealer"] for r in state["rounds"]] == ["Ann", "Bob", "Cy", "Di", "Ann", "Bob", "Cy"]
    assert api.call("GET", f"/api/games/{gid}") == state


def test_correcting_a_round_through_put(api):
    gid = api.new_game()["id"]
    api.round(gid, *GAME[0])
    api.round(gid, *GAME[1])
    state = api.call(
        "PUT", f"/api/games/{gid}/rounds/1", {"went_out": "Bob", "caught": {"Ann": "", "Cy": "", "Di": ""}}
    )
    assert state["rounds"][0]["went_out"] == "Bob" and state["rounds"][0]["corrected"]
    assert {p["name"]: p["points"] for p in state["players"]} == {"Ann": 5, "Bob": 0, "Cy": 0, "Di": 20}
    api.call("PUT", f"/api/games/{gid}/rounds/3", {"went_out": "Bob", "caught": {}}, 400)


@pytest.mark.parametrize(
    "body, message",
    [
        ({"ruleset": "poker", "players": PLAYERS}, "there is no ruleset 'poker'"),
        ({"ruleset": "ten-pennies", "players": ["Ann"]}, "for 2 to 8 players, not 1"),
        ({"ruleset": "ten-pennies", "players": ["Ann", "ANN "]}, "two players are called 'Ann'"),
        ({"ruleset": "ten-pennies", "players": "Ann, Bob"}, "'players' must be a list"),
        ({"ruleset": "ten-pennies", "players": PLAYERS, "first_dealer": "Zed"}, "the first dealer 'Zed'"),
        ({"ruleset": "ten-pennies", "players": PLAYERS, "penny_cents": 0}, "at least 1¢"),
        ({"players": PLAYERS}, "'ruleset' is missing"),
    ],
)
def test_bad_new_games(api, body, message):
    error = api.call("POST", "/api/games", body, 400)["error"]
    assert message in error


def test_eleventh_buy_refused_and_nothing_saved(api):
    gid = api.new_game()["id"]
    for _ in range(10):
        api.buy(gid, "Bob")
    before = api.call("GET", f"/api/games/{gid}")
    error = api.buy(gid, "Bob", 400)
    assert "an 11th buy is refused" in error["error"] and error["player"] == "Bob"
    assert api.call("GET", f"/api/games/{gid}") == before


@pytest.mark.parametrize(
    "went_out, caught, message",
    [
        ("Ann", {"Bob": "K 7 Z", "Cy": "", "Di": ""}, "Bob's cards: card 3 ('Z') is not a card"),
        ("Ann", {"Bob": "3 3 4 4 5 5 6 6 7 7 8 8", "Cy": "", "Di": ""}, "Bob is caught with 12 cards"),
        ("Ann", {"Bob": "", "Cy": ""}, "enter the cards caught in hand for Di"),
        ("Nobody", {"Bob": "", "Cy": "", "Di": ""}, "'Nobody' is not playing"),
    ],
)
def test_bad_rounds_refused_and_nothing_saved(api, went_out, caught, message):
    gid = api.new_game()["id"]
    error = api.round(gid, went_out, caught, 400)["error"]
    assert message in error
    assert api.call("GET", f"/api/games/{gid}")["version"] == 0


def test_round_for_a_finished_game_refused(api):
    gid = api.new_game()["id"]
    for went_out, caught in GAME:
        api.round(gid, went_out, caught)
    assert "the game is finished" in api.round(gid, *GAME[0], status=400)["error"]
    assert "the game is finished" in api.buy(gid, "Bob", 400)["error"]


def test_stale_version_refused_with_409(api):
    gid = api.new_game()["id"]
    api.buy(gid, "Bob")
    response = api.call("POST", f"/api/games/{gid}/buys", {"player": "Cy", "version": 0}, 409)
    assert response["version"] == 1
    assert response["error"] == "the game changed since this page was loaded (version 0, now 1)"
    assert api.call("GET", f"/api/games/{gid}")["players"][2]["buys_left"] == 10


def test_undo_through_the_api(api, app):
    gid = api.new_game()["id"]
    api.buy(gid, "Bob")
    state = api.call("POST", f"/api/games/{gid}/undo", {"event": 1}, 201)
    assert state["players"][1]["buys_left"] == 10 and state["version"] == 2
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        kinds = [row[0] for row in conn.execute("SELECT kind FROM events ORDER BY id")]
    assert kinds == ["buy", "void"]


@pytest.mark.parametrize(
    "method, path", [("GET", "/api/games/999"), ("POST", "/api/games/999/buys"), ("PUT", "/api/games/999/rounds/1")]
)
def test_unknown_game_is_404(api, method, path):
    body = {"player": "Bob"} if "buys" in path else {"went_out": "Ann", "caught": {}}
    assert "no game 999" in api.call(method, path, body, 404)["error"]


@pytest.mark.parametrize("raw", ["", "[]", "not json", "null", '{"player": 5}'])
def test_malformed_bodies_are_400(client, api, raw):
    gid = api.new_game()["id"]
    response = client.post(f"/api/games/{gid}/buys", data=raw, content_type="application/json")
    assert response.status_code == 400 and "error" in response.get_json()


def test_preview_scores_without_saving(api):
    gid = api.new_game()["id"]
    preview = api.call("POST", f"/api/games/{gid}/preview", {"went_out": "Ann", "caught": GAME[0][1]})
    assert preview["Cy"] == {"points": 75, "pennies": 3, "cards": 3}
    assert api.call("GET", f"/api/games/{gid}")["version"] == 0


def test_rulesets_listing(api):
    listing = {r["id"]: r for r in api.call("GET", "/api/rulesets")}
    assert set(listing) == {
        "ten-pennies",
        "ten-pennies-pcio",
        "ten-card-rummy",
        "pennies-from-heaven",
        "liverpool-rummy",
        "carioca",
        "shanghai-rummy",
        "continental",
    }
    assert listing["ten-pennies"]["rounds"][4]["contract"] == "2 sets of 5"
    assert listing["ten-pennies"]["points"]["JKR"] == 50


def test_a_stale_new_round_for_a_round_recorded_since_is_refused_naming_its_correction(api):
    """docs/api.md: a new round with "round": n, sent on a version from before round n was recorded,
    is refused as already recorded, with the PUT that corrects it (not as a stale view)."""
    game = api.new_game()
    api.round(game["id"], "Ann", {"Bob": "K", "Cy": "", "Di": "5"})
    late = {"went_out": "Bob", "caught": {"Ann": "9"}, "version": game["version"], "round": 1}
    refused = api.call("POST", f"/api/games/{game['id']}/rounds", late, 409)
    assert refused["error"] == f"round 1 is already recorded: correct it with PUT /api/games/{game['id']}/rounds/1"
    assert len(api.call("GET", f"/api/games/{game['id']}")["rounds"]) == 1
