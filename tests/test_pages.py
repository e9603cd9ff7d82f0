"""The game played through the HTML pages, with CSRF protection on as in production."""

import html
import re

import pytest
from support import GAME, csrf_token, found

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def new_game_form(token, players=PLAYERS, **extra):
    form = {"csrf_token": token, "ruleset": "ten-pennies", "first_dealer": "0", "penny_cents": "1"}
    for seat in range(8):
        form[f"players-{seat}"] = players[seat] if seat < len(players) else ""
    form.update(extra)
    return form


def start_game(client, players=PLAYERS, **extra):
    token = csrf_token(client.get("/games/new").text)
    response = client.post("/games/new", data=new_game_form(token, players, **extra))
    assert response.status_code == 302, response.text
    return response.headers["Location"]


def round_form(client, url, went_out, caught, players=PLAYERS):
    page = client.get(url)
    token = csrf_token(page.text)
    version = found(r'name="version" type="hidden" value="(\d+)"', page.text)
    data = {"csrf_token": token, "version": version, "went_out": went_out}
    for seat, name in enumerate(players):
        data[f"caught-{seat}"] = caught.get(name, "")
    return data


def test_whole_game_through_the_pages(client):
    game_url = start_game(client)
    page = client.get(game_url).text
    assert "Round 1" in page and "2 sets of 3" in page and "Deal</dt><dd>11 cards each" in page
    assert "2 decks (4 jokers)" in page
    token = csrf_token(page)
    response = client.post(f"{game_url}/buys", data={"csrf_token": token, "player": "Bob", "version": "0"})
    assert response.status_code == 302
    assert "Bob bought the discard — 9 buys left" in client.get(game_url).text
    for went_out, caught in GAME:
        url = f"{game_url}/rounds/new"
        response = client.post(url, data=round_form(client, url, went_out, caught))
        assert response.status_code == 302, response.text
    page = client.get(game_url).text
    assert "Game over" in page and "Winner" in page
    state = client.get("/api" + game_url).get_json()
    winner = state["winners"][0]
    assert f"<strong>{winner}</strong>" in page
    assert f"The bowl of {state['bowl']} pennies is paid out" in page


def test_bad_card_keeps_what_was_typed_and_saves_nothing(client):
    game_url = start_game(client)
    url = f"{game_url}/rounds/new"
    data = round_form(client, url, "Ann", {"Bob": "K 7 Q9", "Cy": "JKR", "Di": "3"})
    response = client.post(url, data=data)
    assert response.status_code == 400
    assert "Bob&#39;s cards: card 3 (&#39;Q9&#39;) is not a card" in response.text
    assert 'value="K 7 Q9"' in response.text and 'value="JKR"' in response.text
    assert client.get("/api" + game_url).get_json()["version"] == 0


def test_form_without_csrf_token_is_refused(client):
    game_url = start_game(client)
    response = client.post(f"{game_url}/buys", data={"player": "Bob", "version": "0"})
    assert response.status_code == 400 and "Reload the page" in response.text
    url = f"{game_url}/rounds/new"
    data = round_form(client, url, "Ann", {"Bob": "", "Cy": "", "Di": ""})
    del data["csrf_token"]
    assert client.post(url, data=data).status_code == 400
    assert client.get("/api" + game_url).get_json()["version"] == 0


@pytest.mark.parametrize(
    "players, message",
    [
        (["Ann"], "for 2 to 8 players, not 1"),
        (["Ann", "ann"], "two players are called &#39;Ann&#39;"),
        (["Ann", "B" * 41], "longer than 40 characters"),
    ],
)
def test_bad_player_names_keep_the_form(client, players, message):
    token = csrf_token(client.get("/games/new").text)
    response = client.post("/games/new", data=new_game_form(token, players))
    assert response.status_code == 400 and message in response.text
    assert f'value="{players[0]}"' in response.text
    assert "Game 1" not in client.get("/").text


def test_first_dealer_in_an_empty_seat(client):
    token = csrf_token(client.get("/games/new").text)
    response = client.post("/games/new", data=new_game_form(token, first_dealer="5"))
    assert response.status_code == 400 and "player 6, but that name box is empty" in response.text


def test_random_first_dealer_is_one_of_the_players(client):
    game_url = start_game(client, first_dealer="")
    assert client.get("/api" + game_url).get_json()["rounds"] == []
    page = client.get(game_url).text
    dealer = found(r'<span class="badge dealer">([^<]+)</span>', page)
    assert dealer in PLAYERS


def test_names_with_apostrophes_and_markup_are_shown_escaped(client):
    players = ["D'Arcy", "<script>alert(1)</script>", "Zoë", "Ann & Bob"]
    game_url = start_game(client, players)
    page = client.get(game_url).text
    assert "<script>alert(1)</script>" not in page
    assert html.escape("<script>alert(1)</script>") in page
    assert "D&#39;Arcy" in page and "Zoë" in page and "Ann &amp; Bob" in page


def test_correction_and_undo_through_the_pages(client):
    game_url = start_game(client)
    url = f"{game_url}/rounds/new"
    client.post(url, data=round_form(client, url, "Ann", {"Bob": "K", "Cy": "", "Di": ""}))
    edit = f"{game_url}/rounds/1/edit"
    page = client.get(edit).text
    assert 'value="K"' in page and '<input checked id="went_out-0"' in page
    response = client.post(edit, data=round_form(client, edit, "Cy", {"Ann": "5", "Bob": "", "Di": ""}))
    assert response.status_code == 302
    history = client.get(f"{game_url}/history").text
    assert "Correction — Round 1: Cy went out" in history and "Round 1: Ann went out" in history
    state = client.get("/api" + game_url).get_json()
    assert {p["name"]: p["points"] for p in state["players"]} == {"Ann": 5, "Bob": 0, "Cy": 0, "Di": 0}
    confirm = client.get(f"{game_url}/undo/2?back=history").text  # undoing a round asks first
    assert "Round 1: Cy went out" in confirm and "Yes, undo it" in confirm
    token = csrf_token(confirm)
    response = client.post(f"{game_url}/undo/2", data={"csrf_token": token, "version": "2"})
    assert response.status_code == 302
    state = client.get("/api" + game_url).get_json()
    assert state["rounds"] == [] and state["version"] == 3


def test_stale_page_does_not_overwrite(client):
    game_url = start_game(client)
    token = csrf_token(client.get(game_url).text)
    client.post(f"{game_url}/buys", data={"csrf_token": token, "player": "Bob", "version": "0"})
    client.post(f"{game_url}/buys", data={"csrf_token": token, "player": "Cy", "version": "0"})
    page = client.get(game_url).text
    assert "changed on another device" in page and "Bob bought in round 1" in page
    assert client.get("/api" + game_url).get_json()["version"] == 1


def test_unknown_pages_are_404(client):
    assert client.get("/games/42").status_code == 404
    assert client.get("/games/42/history").status_code == 404
    start_game(client)
    assert client.get("/games/1/rounds/3/edit").status_code == 404


def test_security_headers(client):
    response = client.get("/")
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_hands_stay_with_their_seats_when_the_went_out_box_is_not_sent(client):
    """A browser does not send the went-out player's (disabled) box; later hands must not shift a seat."""
    game_url = start_game(client)
    url = f"{game_url}/rounds/new"
    data = round_form(client, url, "Bob", {"Ann": "K", "Cy": "A", "Di": "5"})
    del data["caught-1"]
    assert client.post(url, data=data).status_code == 302
    results = client.get("/api" + game_url).get_json()["rounds"][0]["results"]
    assert {name: r["cards"] for name, r in results.items()} == {"Ann": ["K"], "Bob": [], "Cy": ["A"], "Di": ["5"]}


def test_game_page_has_one_share_section_and_a_clean_title(client):
    game_url = start_game(client)
    page = client.get(game_url).text
    assert page.count('class="share"') == 1
    title = found(r"(?s)<title>(.*?)</title>", page)
    assert title == "Game 1 — Ten Pennies"


def test_a_small_game_page_never_says_1_pennies_1_buys_or_1_decks(api, client):
    """One plural helper for pages, PDFs and messages: "1 penny", "1 buy", "1 deck"."""
    gid = api.new_game(["Ann", "Bob"])["id"]  # 2 players: 1 deck
    api.round(gid, "Ann", {"Bob": "K"})  # 1 card caught: 1 penny in the bowl
    token = csrf_token(client.get(f"/games/{gid}").text)
    for _ in range(9):
        version = str(api.call("GET", f"/api/games/{gid}")["version"])
        client.post(f"/games/{gid}/buys", data={"csrf_token": token, "player": "Bob", "version": version})
    page = client.get(f"/games/{gid}").text
    assert "1 deck (2 jokers)" in page and "Bob bought the discard — 1 buy left" in page
    assert "Bowl: <strong>10</strong> pennies" in page
    for wrong in ("1 pennies", "1 buys", "1 decks", "1 deck hold "):
        assert wrong not in page
    other = api.new_game(["Ann", "Bob", "Cy"])["id"]
    api.round(other, "Ann", {"Bob": "K", "Cy": ""})
    assert "Bowl: <strong>1</strong> penny" in client.get(f"/games/{other}").text


def test_a_night_explains_one_buy_as_1_buy(api, client):
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    gid = api.new_game(["Ann", "Bob"], night=night)["id"]
    api.buy(gid, "Bob")
    for _ in range(7):  # a game counts in the night's money once it is finished
        api.round(gid, "Ann", {"Bob": ""})
    assert f'href="/nights/{night}/explain"' in client.get(f"/nights/{night}").text
    page = client.get(f"/nights/{night}/explain").text
    assert "Game 1: 1 buy into the bowl (1 penny) <strong>−$0.01</strong>" in page
    assert "1 buys" not in page


def test_no_keep_it_on_the_undo_question_comes_back_to_the_undo_offer(client):
    """Issue 60: "after 'No, keep it' on 'Undo round 3?' the game page no longer offers the Undo"."""
    game_url = start_game(client)
    url = f"{game_url}/rounds/new"
    went_out, caught = GAME[0]
    assert client.post(url, data=round_form(client, url, went_out, caught)).status_code == 302
    page = client.get(game_url).text
    question = found(r'href="(/games/\d+/undo/\d+)"', page)
    assert "Undo round 1?" in client.get(question).text
    kept = client.get(game_url).text  # "No, keep it": back to the game
    assert f'href="{question}"' in kept and "↶ Undo" in kept


def optgroups(page: str) -> list[tuple[str, list[str]]]:
    """The new-game list as drawn: each <optgroup>'s label and its options' values."""
    select = page.split('id="ruleset"', 1)[1].split("</select>", 1)[0]
    return [
        (html.unescape(label), re.findall(r'<option[^>]*value="([^"]+)"', body))
        for label, body in re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', select, re.S)
    ]


def test_the_new_game_list_groups_the_games_by_family_and_language(client):
    """Issue 61: "the new-game page groups rulesets by family and language … with a one-line description each"."""
    page = client.get("/games/new").text
    assert optgroups(page) == [
        ("Ten Pennies and its cousins", ["ten-pennies", "ten-pennies-pcio", "ten-card-rummy", "pennies-from-heaven"]),
        ("Contract rummy", ["liverpool-rummy", "shanghai-rummy"]),
        ("Contract rummy in Spanish: Carioca, Continental", ["carioca", "continental"]),
    ]
    assert "<dt>Continental</dt><dd>Continental (Spain): 7 hands of tríos" in page


def test_house_rules_are_listed_after_the_shipped_games(client):
    from test_rulesets_form import fields_of, post

    url = "/rulesets/new?from=carioca"
    fields = [
        (name, "Carioca, our way" if name == "name" else value) for name, value in fields_of(client.get(url).text)
    ]
    assert post(client, url, fields, "save").status_code == 302
    groups = optgroups(client.get("/games/new").text)
    assert groups[-1] == ("House rules", ["carioca-our-way"])
    assert optgroups(client.get("/melds").text.replace('name="ruleset"', 'id="ruleset"', 1))[-1][0] == "House rules"
