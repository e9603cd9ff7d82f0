"""Odd input never answers 500 and never writes anything (issue: huge ids, lone surrogates, deep
nesting, wrong content types), on every route that takes it."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import PLAYERS, examples

HUGE = 2**63
FIELDS = ["player", "went_out", "caught", "ruleset", "players", "round", "stage", "melds", "onto", "version", "event"]
FIELDS += ["pin", "sides", "teams", "night", "penny_cents", "first_dealer", "name", "hands", "books", "Bob"]
FIELDS += ["notes", "edits"]
ID_ROUTES = [  # (method, path with {id}) for every route that takes an id
    ("GET", "/games/{id}"),
    ("GET", "/games/{id}/history"),
    ("GET", "/games/{id}/export.csv"),
    ("GET", "/games/{id}/export.json"),
    ("GET", "/games/{id}/scorepad.pdf"),
    ("GET", "/games/{id}/rounds/new"),
    ("GET", "/games/1/rounds/{id}/edit"),
    ("GET", "/games/{id}/unlock"),
    ("POST", "/games/{id}/lock"),
    ("POST", "/games/{id}/buys"),
    ("POST", "/games/{id}/undo/1"),
    ("POST", "/games/1/undo/{id}"),
    ("GET", "/nights/{id}"),
    ("POST", "/nights/{id}/close"),
    ("GET", "/nights/{id}/export.csv"),
    ("GET", "/nights/{id}/export.json"),
    ("GET", "/nights/{id}/summary.pdf"),
    ("GET", "/players/{id}"),
    ("GET", "/api/games/{id}"),
    ("POST", "/api/games/{id}/buys"),
    ("POST", "/api/games/{id}/rounds"),
    ("PUT", "/api/games/{id}/rounds/1"),
    ("PUT", "/api/games/1/rounds/{id}"),
    ("POST", "/api/games/{id}/undo"),
    ("POST", "/api/games/{id}/preview"),
    ("POST", "/api/games/{id}/unlock"),
    ("GET", "/api/nights/{id}"),
    ("GET", "/games/{id}/table"),
    ("GET", "/games/{id}/table/state"),
    ("POST", "/games/{id}/rematch"),
    ("POST", "/api/games/{id}/rematch"),
    ("POST", "/games/{id}/notes"),
    ("POST", "/nights/{id}/notes"),
    ("GET", "/api/games/{id}/notes"),
    ("PUT", "/api/games/{id}/notes"),
    ("GET", "/api/nights/{id}/notes"),
    ("PUT", "/api/nights/{id}/notes"),
]


@pytest.fixture
def one_game(api):
    return api.new_game()


def versions(client):
    return client.get("/api/games/1").get_json()["version"]


@pytest.mark.parametrize("method, path", ID_ROUTES)
@pytest.mark.parametrize("bad_id", [HUGE, 10**30, 2**64 + 1])
def test_an_id_too_large_for_the_database_is_404(client, one_game, method, path, bad_id):
    response = client.open(path.format(id=bad_id), method=method, json={"player": "Ann"})
    assert response.status_code == 404, (path, response.status_code)


def test_a_page_number_too_large_is_refused_not_500(client, one_game):
    assert client.get(f"/players/1?before={HUGE}").status_code in (200, 400)
    assert client.get("/players/1?before=-1").status_code in (200, 400)


@pytest.mark.parametrize("field", ["penny_cents", "night"])
def test_huge_numbers_in_a_new_game_are_refused_by_name(api, field):
    body = {"ruleset": "ten-pennies", "players": PLAYERS, field: HUGE}
    assert field in api.call("POST", "/api/games", body, 400)["error"]
    assert api.call("GET", "/api/games/1", None, 404)


LONE = "a\ud800"


@pytest.mark.parametrize(
    "path, body, field",
    [
        ("/api/games", {"ruleset": "ten-pennies", "players": ["Ann", LONE]}, "players"),
        ("/api/games", {"ruleset": "ten-pennies", "players": PLAYERS, "pin": "12" + LONE}, "pin"),
        ("/api/nights", {"name": LONE}, "name"),
        ("/api/games/1/rounds", {"went_out": "Ann", "caught": {"Bob": LONE, "Cy": "", "Di": ""}}, "caught"),
        ("/api/games/1/unlock", {"pin": LONE}, "pin"),
    ],
)
def test_text_that_is_not_valid_unicode_is_400_naming_the_field(client, one_game, path, body, field):
    before = versions(client)
    raw = json.dumps(body)  # json.dumps writes the lone surrogate as the escape \\ud800
    response = client.post(path, data=raw, content_type="application/json")
    assert response.status_code == 400, response.get_data(as_text=True)
    assert field in response.get_json()["error"] and "Unicode" in response.get_json()["error"]
    assert versions(client) == before
    assert client.get("/api/nights/1").status_code == 404


@pytest.mark.parametrize("depth", [100, 30000])
def test_deeply_nested_json_is_400(client, one_game, depth):
    response = client.post("/api/games/1/rounds", data="[" * depth, content_type="application/json")
    assert response.status_code == 400 and "error" in response.get_json()
    levels = min(depth, 10000)  # within the 64 KiB a request may carry
    nested = '{"went_out": "Ann", "caught": ' + '{"a":' * levels + "1" + "}" * levels + "}"
    response = client.post("/api/games/1/rounds", data=nested, content_type="application/json")
    assert response.status_code == 400 and "error" in response.get_json()
    assert versions(client) == 0


POST_ROUTES = [
    "/api/games",
    "/api/games/1/buys",
    "/api/games/1/rounds",
    "/api/games/1/undo",
    "/api/games/1/preview",
    "/api/games/1/unlock",
    "/api/melds/check",
    "/api/nights",
]


@pytest.mark.parametrize("path", POST_ROUTES)
@pytest.mark.parametrize(
    "data, content_type",
    [('{"name": "x", "player": "Ann"}', "text/plain"), ("name=x&player=Ann", "application/x-www-form-urlencoded")],
)
def test_api_bodies_must_be_json(client, one_game, path, data, content_type):
    response = client.post(path, data=data, content_type=content_type)
    assert response.status_code == 415 and "application/json" in response.get_json()["error"]
    assert versions(client) == 0
    assert client.get("/api/nights/1").status_code == 404  # a cross-site form cannot start a night


ODD_TEXT = st.text(max_size=12) | st.sampled_from(["a\ud800", "\udfff", "\x00", "‮", "=1+1", "'; --"])
ODD_NUMBERS = st.integers(-(2**70), 2**70) | st.sampled_from([2**63, 2**64, -(2**63) - 1])
ODD_JSON = st.recursive(
    st.none() | st.booleans() | ODD_NUMBERS | ODD_TEXT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(ODD_TEXT | st.sampled_from(FIELDS), children),
    max_leaves=10,
)
BODIES = st.dictionaries(st.sampled_from(FIELDS), ODD_JSON, max_size=5).map(json.dumps) | st.sampled_from(
    ["[" * 5000, "{" * 5000, '{"a": ' * 2000, "", "null", "[]", '"x"', "1e999999"]
)
CONTENT_TYPES = st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded", ""])


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(ID_ROUTES), ODD_NUMBERS, BODIES, CONTENT_TYPES)
def test_fuzzed_ids_bodies_and_content_types_never_500_nor_write(client, route, number, data, content_type):
    if client.get("/api/games/1").status_code != 200:
        client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS})
    method, path = route
    before = (versions(client), client.get("/api/nights/1").status_code)
    response = client.open(path.format(id=number), method=method, data=data, content_type=content_type)
    assert response.status_code < 500, (path, number, data[:80], response.get_data(as_text=True)[:300])
    if response.status_code >= 400:
        assert (versions(client), client.get("/api/nights/1").status_code) == before


def test_huge_counts_in_a_pennies_from_heaven_hand_are_refused_by_name(api):
    body = {"ruleset": "pennies-from-heaven", "players": ["Ann", "Bob"], "first_dealer": "Ann"}
    gid = api.call("POST", "/api/games", body, 201)["id"]
    for side in (
        {"players": ["Ann"], "red_threes": 10**30, "hands": {"Ann": ""}},
        {"players": ["Ann"], "melded_points": 2**62, "hands": {"Ann": ""}},
        {"players": ["Ann"], "books": {"natural": 10**9}, "hands": {"Ann": ""}},
        {"players": ["Ann"], "hands": {"Ann": 2**62}},
    ):
        hand = {"went_out": None, "sides": [side, {"players": ["Bob"], "hands": {"Bob": ""}}]}
        response = api.client.post(f"/api/games/{gid}/rounds", json=hand)
        assert response.status_code == 400 and "from 0 to 100000" in response.get_json()["error"], response.get_json()
    assert api.call("GET", f"/api/games/{gid}")["version"] == 0


# --- hidden fields and numbers as a crafted request sends them ------------------------------------


def round_form_data(client, gid, **changes):
    from support import csrf_token

    page = client.get(f"/games/{gid}/rounds/new").text
    data = {
        "csrf_token": csrf_token(page),
        "went_out": "Ann",
        "caught-0": "",
        "caught-1": "K",
        "caught-2": "",
        "caught-3": "",
        "round_number": "1",
        "version": "0",
        "entry_key": "k-" + str(len(changes)),
    }
    for key, value in changes.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("version", "", "without the game"),
        ("version", None, "without the game"),
        ("version", "²", "without the game"),
        ("version", "٠", "without the game"),  # an Arabic-Indic zero: int() would read it
        ("round_number", "", "without the round it was drawn for"),
        ("round_number", "¹", "without the round it was drawn for"),
    ],
)
def test_a_round_form_with_a_missing_or_odd_hidden_field_says_so_and_saves_nothing(api, client, field, value, message):
    gid = api.new_game()["id"]
    answer = client.post(f"/games/{gid}/rounds/new", data=round_form_data(client, gid, **{field: value}))
    assert answer.status_code == 400
    assert message in answer.text
    assert 'value="K"' in answer.text  # what was typed is kept
    assert api.call("GET", f"/api/games/{gid}")["version"] == 0


@pytest.mark.parametrize("seats", ["²", "٣", "4.0", "-4", "", "99999999999999999999999"])
def test_a_blank_sheet_for_an_odd_number_of_seats_is_refused_by_name(client, seats):
    answer = client.get("/scorepad/blank.pdf", query_string={"seats": seats})
    assert answer.status_code == 400
    assert "is for 2 to 8 players" in answer.text


MELD_FIELDS = [
    "ruleset",
    "round",
    "stage",
    "melds",
    "melds-0",
    "melds-7",
    "melds-8",
    "melds-x",
    "melds-0-0",
    "onto",
    "side_score",
    "csrf_token",
    "",
    "melds-",
    "round-0",
    "stage-0",
    "x" * 300,
]
MELD_VALUES = [
    "",
    "K K K",
    "²",
    "٣",
    "1",
    "6",
    "hand",
    "first-down",
    "ten-card-rummy",
    "pennies-from-heaven",
    "-1",
    "9" * 30,
    "JKR " * 40,
]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(MELD_FIELDS), st.sampled_from(MELD_VALUES)), max_size=8))
def test_the_meld_checker_answers_any_query_without_500(client, query):
    answer = client.get("/melds", query_string=[("stage", "hand"), ("ruleset", "ten-card-rummy"), *query])
    assert answer.status_code in (200, 400)
