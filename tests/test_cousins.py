"""Ten Card Rummy, Pennies From Heaven and Liverpool Rummy at the table: whole games through the API
and the pages, with totals worked out by hand in the comments."""

import html
import io
import re

import pytest
from pypdf import PdfReader
from support import csrf_token, found

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
TEAMS = [["Ann", "Cy"], ["Bob", "Di"]]

# --- Ten Card Rummy -----------------------------------------------------------------------------

TCR_POINTS = {
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "10": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
    "A": 11,
    "2": 15,
    "JKR": 15,
}
TCR_HANDS = ["K 9", "A", "2 JKR 3", "", "Q Q", "10", "4 5 6"]  # dealt out in turn to the players caught


def tcr_round(number):
    went_out = PLAYERS[number % 4]
    others = [p for p in PLAYERS if p != went_out]
    return went_out, {p: TCR_HANDS[(number + i) % len(TCR_HANDS)] for i, p in enumerate(others)}


def tcr_expected():
    totals = dict.fromkeys(PLAYERS, 0)
    for number in range(1, 12):
        for name, hand in tcr_round(number)[1].items():
            totals[name] += sum(TCR_POINTS[c] for c in hand.split())
    totals["Bob"] += 100  # a 4th buy in round 4
    return totals


def test_ten_card_rummy_whole_game_through_the_api(api):
    gid = api.new_game(ruleset="ten-card-rummy")["id"]
    for number in range(1, 12):
        if number == 4:
            for _ in range(4):
                api.buy(gid, "Bob")
        state = api.round(gid, *tcr_round(number))
    assert state["finished"]
    assert {p["name"]: p["points"] for p in state["players"]} == tcr_expected()
    assert state["rounds"][3]["results"]["Bob"]["penalty"] == 100
    assert state["rounds"][3]["buys"]["Bob"] == 4
    assert state["bowl"] == 0 and set(state["payouts"].values()) == {0}  # no pennies change hands
    totals = tcr_expected()
    assert state["winners"] == [n for n in PLAYERS if totals[n] == min(totals.values())]


def test_ten_card_rummy_scoring_by_hand(api):
    gid = api.new_game(ruleset="ten-card-rummy")["id"]
    state = api.round(gid, "Ann", {"Bob": "3 10 J A", "Cy": "2 JKR", "Di": "9 9 9 9 8 8 8 8 7 7"})
    # Bob 3 + 10 + 10 + 11 = 34; Cy 15 + 15 = 30; Di 36 + 32 + 14 = 82 (10 cards, no buys: allowed)
    assert {p["name"]: p["points"] for p in state["players"]} == {"Ann": 0, "Bob": 34, "Cy": 30, "Di": 82}


def test_ten_card_rummy_refusals(api):
    gid = api.new_game(ruleset="ten-card-rummy")["id"]
    error = api.buy(gid, "Bob", 400)["error"]
    assert error == "buying starts in round 4 in Ten Card Rummy; this is round 1"
    error = api.round(gid, "Ann", {"Bob": "3 3 4 4 5 5 6 6 7 7 8", "Cy": "", "Di": ""}, 400)["error"]
    assert "Bob is caught with 11 cards, but with 0 buys this round a player holds at most 10" in error
    assert api.call("GET", f"/api/games/{gid}")["version"] == 0
    assert (
        "4 to 8 players, not 3"
        in api.call("POST", "/api/games", {"ruleset": "ten-card-rummy", "players": PLAYERS[:3]}, 400)["error"]
    )


def test_ten_card_rummy_round_card_shows_the_contract(client, api):
    gid = api.new_game(ruleset="ten-card-rummy")["id"]
    for number in range(1, 4):
        api.round(gid, *tcr_round(number))
    page = client.get(f"/games/{gid}").text
    assert "2 melds of 4 — sets or runs" in page and "Deal</dt><dd>10 cards each" in page
    assert "2 decks (4 jokers)" in page and "2s, jokers" in page


# --- Liverpool Rummy (docs/rules.md: A and joker 15, J Q K 10, 2-10 face value; "May I?" takes 2 cards) ---

LIVERPOOL_DEALS = [  # (went out, caught); points worked by hand
    ("Ann", {"Bob": "K Q 5", "Cy": "A JKR", "Di": "2 3 4"}),  # Bob 25 (after 2 buys), Cy 30, Di 9
    ("Bob", {"Ann": "9 9", "Cy": "", "Di": "10 J"}),  # Ann 18, Di 20
    ("Cy", {"Ann": "A", "Bob": "7 8 9 10", "Di": "JKR JKR"}),  # Ann 15, Bob 34, Di 30
    ("Di", {"Ann": "3", "Bob": "K", "Cy": "Q Q Q"}),  # Ann 3, Bob 10, Cy 30
    ("Ann", {"Bob": "2 3 4 5 6 7 8 9 10 2 3 4", "Cy": "5", "Di": "6"}),  # 12 dealt: Bob 63, Cy 5, Di 6
    ("Bob", {"Ann": "J", "Cy": "4 4", "Di": "A A"}),  # Ann 10, Cy 8, Di 30
    ("Cy", {"Ann": "", "Bob": "5 5", "Di": "K Q J"}),  # Bob 10, Di 30
]
LIVERPOOL_TOTALS = {"Ann": 46, "Bob": 142, "Cy": 73, "Di": 125}  # the sums of the comments above


def test_liverpool_rummy_whole_game_through_the_api(api):
    gid = api.new_game(ruleset="liverpool-rummy")["id"]
    api.buy(gid, "Bob")
    api.buy(gid, "Bob")  # two "May I?"s: the discard and a penalty card each, no penny
    for went_out, caught in LIVERPOOL_DEALS:
        state = api.round(gid, went_out, caught)
    assert state["finished"] and len(state["rounds"]) == 7
    assert {p["name"]: p["points"] for p in state["players"]} == LIVERPOOL_TOTALS
    assert state["rounds"][0]["buys"]["Bob"] == 2 and state["rounds"][0]["results"]["Bob"]["penalty"] == 0
    assert state["bowl"] == 0 and set(state["payouts"].values()) == {0}
    assert state["winners"] == ["Ann"]


def test_liverpool_rummy_holds_each_deal_to_its_own_cards(api):
    """Deal 1 deals 10: a hand of 12 with no buy is refused there (deal 5's 12 is allowed above)."""
    gid = api.new_game(ruleset="liverpool-rummy")["id"]
    error = api.round(gid, "Ann", {"Bob": "2 3 4 5 6 7 8 9 10 2 3 4", "Cy": "", "Di": ""}, 400)["error"]
    assert "Bob is caught with 12 cards, but with 0 buys this round a player holds at most 10" in error
    assert (
        "3 to 8 players, not 2"
        in api.call("POST", "/api/games", {"ruleset": "liverpool-rummy", "players": PLAYERS[:2]}, 400)["error"]
    )


def test_liverpool_rummy_answers_the_table_s_questions(api):
    gid = api.new_game(ruleset="liverpool-rummy")["id"]
    asked = api.call("POST", f"/api/games/{gid}/rounds/2/can-go-down", {"cards": "8H 8S 8C 3S 4S 5S 6S K"})
    assert asked["makes_contract"] and asked["arrangement"] == [
        "8♠ 8♥ 8♣: set of 3 × 8",
        "3♠ 4♠ 5♠ 6♠: run of 4 in ♠, 3 to 6",
    ]
    asked = api.call("POST", f"/api/games/{gid}/rounds/2/can-go-down", {"cards": "8H 8S 8C 3S 4S 5S K"})
    assert not asked["makes_contract"] and asked["missing"] == "you need 1 more run of 4"
    body = {"ruleset": "liverpool-rummy", "round": 2, "stage": "first-down", "melds": ["8H 8S 8C", "QS KS AS 2S"]}
    verdict = api.call("POST", "/api/melds/check", body)
    assert not verdict["valid"] and "may not go round it (Q K A 2)" in verdict["reasons"][0]


# --- Carioca (docs/rules.md: A 20, joker 30, J Q K 10, 2-10 face value; a stolen discard adds 2 points) ---

CARIOCA_PLAYERS = ["Ann", "Bob", "Cy"]
CARIOCA_ROUNDS = [  # (went out, caught); points worked by hand
    ("Ann", {"Bob": "A JKR", "Cy": "5 5"}),  # Bob 50 + 2 steals × 2 = 54, Cy 10
    ("Bob", {"Ann": "K", "Cy": ""}),  # Ann 10
    ("Cy", {"Ann": "2 3", "Bob": "Q Q"}),  # Ann 5, Bob 20
    ("Ann", {"Bob": "9", "Cy": "JKR"}),  # Bob 9, Cy 30
    ("Bob", {"Ann": "A A", "Cy": "4"}),  # Ann 40, Cy 4
    ("Cy", {"Ann": "", "Bob": "7 8"}),  # Bob 15
    ("Ann", {"Bob": "10", "Cy": "J Q"}),  # Bob 10, Cy 20
    ("Bob", {"Ann": "3", "Cy": "6 6 6"}),  # Ann 3, Cy 18
]
CARIOCA_TOTALS = {"Ann": 58, "Bob": 108, "Cy": 82}  # the sums of the comments above


def test_carioca_whole_game_through_the_api(api):
    gid = api.new_game(CARIOCA_PLAYERS, ruleset="carioca")["id"]
    api.buy(gid, "Bob")
    api.buy(gid, "Bob")  # two discards stolen: the card alone each, 2 points each
    for went_out, caught in CARIOCA_ROUNDS:
        state = api.round(gid, went_out, caught)
    assert state["finished"] and len(state["rounds"]) == 8
    assert {p["name"]: p["points"] for p in state["players"]} == CARIOCA_TOTALS
    assert state["rounds"][0]["results"]["Bob"]["penalty"] == 4
    assert state["bowl"] == 0 and state["winners"] == ["Ann"]


def test_carioca_escalas_go_round_the_ace_and_hold_four(api):
    """The Chilean source: an escala is 4 of one suit in a row, "pudiendo pasar las cartas entre el As"."""
    body = {"ruleset": "carioca", "round": 3, "stage": "first-down", "melds": ["QS KS AS 2S", "9H 10H JH QH"]}
    assert api.call("POST", "/api/melds/check", body)["valid"]
    body["melds"] = ["QS KS AS", "9H 10H JH QH"]
    verdict = api.call("POST", "/api/melds/check", body)
    assert not verdict["valid"] and "a run holds at least 4 cards" in verdict["reasons"][0]
    gid = api.new_game(CARIOCA_PLAYERS, ruleset="carioca")["id"]
    asked = api.call("POST", f"/api/games/{gid}/rounds/8/can-go-down", {"cards": "7 7 7 8 8 8 9 9 9 K K JKR"})
    assert asked["makes_contract"] and len(asked["arrangement"]) == 4


def test_carioca_says_its_contracts_in_its_own_words_wherever_the_table_reads_them(client, api):
    """Issue 61: "the table view, the phones and the PDFs use the game's own words for its melds" — the
    Chilean source's round 2 is "1 trío y 1 escala", round 1 "2 tríos"."""
    gid = api.new_game(CARIOCA_PLAYERS, ruleset="carioca")["id"]
    for url in (f"/games/{gid}", f"/games/{gid}/table", "/rulesets/carioca"):
        assert "2 tríos of 3" in html.unescape(client.get(url).get_data(as_text=True)), url
    card = PdfReader(io.BytesIO(client.get("/rulesets/carioca/card.pdf").data)).pages[0].extract_text()
    assert "1 trío of 3 and 1 escala of 4" in " ".join(card.split())
    sheet = PdfReader(io.BytesIO(client.get(f"/games/{gid}/scorepad.pdf").data)).pages[0].extract_text()
    assert "2 tríos of 3" in " ".join(sheet.split())
    asked = api.call("POST", f"/api/games/{gid}/rounds/2/can-go-down", {"cards": "8H 8S 8C 3S 4S 5S K"})
    assert asked["missing"] == "you need 1 more escala of 4"
    body = {"ruleset": "carioca", "round": 1, "stage": "first-down", "melds": ["8H 8S 8C"]}
    verdict = api.call("POST", "/api/melds/check", body)
    assert verdict["reasons"] == ["round 1 needs exactly 2 tríos of 3; 1 trío was laid down"]


# --- Shanghai Rummy (docs/rules.md: 2-9 5 points, 10 J Q K 10, A and joker 15; a buy takes 2 cards) ---

SHANGHAI_DEALS = [  # (went out, caught); points worked by hand
    ("Ann", {"Bob": "K Q 5", "Cy": "A JKR", "Di": "2 3 4"}),  # Bob 25 (after 3 buys), Cy 30, Di 15
    ("Bob", {"Ann": "9 9", "Cy": "", "Di": "10 J"}),  # Ann 10, Di 20
    ("Cy", {"Ann": "A", "Bob": "7 8 9 10", "Di": "JKR JKR"}),  # Ann 15, Bob 25, Di 30
    ("Di", {"Ann": "3", "Bob": "K", "Cy": "Q Q Q"}),  # Ann 5, Bob 10, Cy 30
    ("Ann", {"Bob": "2 3 4 5 6 7 8 9 10 J Q", "Cy": "5", "Di": "6"}),  # 11 cards: Bob 8 × 5 + 30 = 70, Cy 5, Di 5
    ("Bob", {"Ann": "J", "Cy": "4 4", "Di": "A A"}),  # Ann 10, Cy 10, Di 30
    ("Cy", {"Ann": "", "Bob": "5 5", "Di": "K Q J"}),  # Bob 10, Di 30
    ("Di", {"Ann": "2", "Bob": "JKR", "Cy": "10 10"}),  # Ann 5, Bob 15, Cy 20
    # deal 9, after Cy's 4 buys (11 + 8 cards): A A A A 60, K K K K Q Q Q Q 80, 2 2 2 2 3 3 3 35: Cy 175; Bob 5
    ("Ann", {"Bob": "9", "Cy": "A A A A K K K K Q Q Q Q 2 2 2 2 3 3 3", "Di": ""}),
    ("Bob", {"Ann": "4 4 4", "Cy": "JKR", "Di": "8"}),  # Ann 15, Cy 15, Di 5
]
SHANGHAI_TOTALS = {"Ann": 60, "Bob": 160, "Cy": 285, "Di": 135}  # the sums of the comments above


def test_shanghai_rummy_whole_game_through_the_api(api):
    gid = api.new_game(ruleset="shanghai-rummy")["id"]
    for _ in range(3):
        api.buy(gid, "Bob")
    error = api.buy(gid, "Bob", 400)["error"]  # docs/rules.md: 3 buys a player in deals 1-8
    assert error == "Bob has made 3 buys in round 1, the most a round allows; another buy is refused"
    for went_out, caught in SHANGHAI_DEALS[:8]:
        api.round(gid, went_out, caught)
    for _ in range(4):
        api.buy(gid, "Cy")  # ... and 4 in deals 9 and 10
    assert "Cy has made 4 buys in round 9" in api.buy(gid, "Cy", 400)["error"]
    for went_out, caught in SHANGHAI_DEALS[8:]:
        state = api.round(gid, went_out, caught)
    assert state["finished"] and len(state["rounds"]) == 10
    assert {p["name"]: p["points"] for p in state["players"]} == SHANGHAI_TOTALS
    assert state["rounds"][0]["buys"]["Bob"] == 3 and state["rounds"][0]["results"]["Bob"]["penalty"] == 0
    assert state["bowl"] == 0 and state["winners"] == ["Ann"]


def test_shanghai_rummy_melds_hold_fewer_wilds_than_naturals(api):
    """docs/rules.md: 1 joker in a set of 3 or a sequence of 4, 2 in a sequence of 5 or 7."""
    gid = api.new_game(ruleset="shanghai-rummy")["id"]
    asked = api.call("POST", f"/api/games/{gid}/rounds/1/can-go-down", {"cards": "7S 7H JKR 9S 9H JKR K"})
    assert asked["makes_contract"], asked
    asked = api.call("POST", f"/api/games/{gid}/rounds/1/can-go-down", {"cards": "7S JKR JKR 9S 9H 9C K"})
    assert not asked["makes_contract"]
    body = {"ruleset": "shanghai-rummy", "round": 3, "stage": "first-down", "melds": ["5S 6S JKR 8S", "9H 10H JH QH"]}
    assert api.call("POST", "/api/melds/check", body)["valid"]
    body["melds"] = ["5S JKR JKR 8S", "9H 10H JH QH"]
    verdict = api.call("POST", "/api/melds/check", body)
    assert not verdict["valid"] and "fewer wilds than naturals" in verdict["reasons"][0]
    body = {
        "ruleset": "shanghai-rummy",
        "round": 5,
        "stage": "first-down",
        "melds": ["KS KH KD", "3H 4H 5H JKR 7H JKR 9H"],
    }
    assert api.call("POST", "/api/melds/check", body)["valid"]


# --- Continental (docs/rules.md: joker 50, A 20, K Q J 10, 10-2 their value; robar de contra takes 2 cards) ---

CONTINENTAL_PLAYERS = ["Ann", "Bob", "Cy"]
CONTINENTAL_HANDS = [  # (went out, caught); points worked by hand
    ("Ann", {"Bob": "A JKR", "Cy": "5 5"}),  # Bob 70 (after a robo de contra: no points), Cy 10
    ("Bob", {"Ann": "K", "Cy": ""}),  # Ann 10; Bob went down and out in one turn: −10
    ("Cy", {"Ann": "2 3", "Bob": "Q Q"}),  # Ann 5, Bob 20
    ("Ann", {"Bob": "9", "Cy": "JKR"}),  # Bob 9, Cy 50
    ("Bob", {"Ann": "A A", "Cy": "4"}),  # Ann 40, Cy 4
    ("Cy", {"Ann": "", "Bob": "7 8"}),  # Bob 15
    ("Ann", {"Bob": "2 3 4 5 6 7 8 9 10 J Q K A", "Cy": "JKR JKR"}),  # 13 dealt: Bob 54 + 30 + 20 = 104, Cy 100
]
CONTINENTAL_AT_ONCE = 2  # the hand its player went down and out in one turn
CONTINENTAL_TOTALS = {"Ann": 55, "Bob": 208, "Cy": 164}  # the sums of the comments above


def test_continental_whole_game_through_the_api(api):
    gid = api.new_game(CONTINENTAL_PLAYERS, ruleset="continental")["id"]
    api.buy(gid, "Bob")  # robar de contra: the discard and a penalty card
    for number, (went_out, caught) in enumerate(CONTINENTAL_HANDS, start=1):
        body = {"went_out": went_out, "caught": caught, "at_once": number == CONTINENTAL_AT_ONCE}
        state = api.call("POST", f"/api/games/{gid}/rounds", body, 201)
    assert state["finished"] and len(state["rounds"]) == 7
    assert {p["name"]: p["points"] for p in state["players"]} == CONTINENTAL_TOTALS
    assert state["rounds"][0]["results"]["Bob"]["penalty"] == 0
    bob = {"cards": [], "points": -10, "pennies": 0, "penalty": 0, "bonus": 10, "cut_bonus": 0}
    assert state["rounds"][1]["results"]["Bob"] == bob
    assert state["bowl"] == 0 and state["winners"] == ["Ann"]


def test_going_down_and_out_at_once_is_ticked_on_the_round_form_and_kept_for_a_correction(client):
    """docs/rules.md, Continental: "obtiene −10 puntos en esa mano"; the box is on the form only where
    the game has such a bonus, and a correction of the hand finds it ticked."""
    from test_pages import round_form, start_game

    game_url = start_game(client, CONTINENTAL_PLAYERS, ruleset="continental")
    url = f"{game_url}/rounds/new"
    assert "Went down and went out in the same turn: 10 points off for who went out" in client.get(url).text
    data = round_form(client, url, "Ann", {"Bob": "K", "Cy": "5 5"}, CONTINENTAL_PLAYERS) | {"at_once": "y"}
    assert client.post(url, data=data).status_code == 302
    state = client.get("/api" + game_url).get_json()
    assert [p["points"] for p in state["players"]] == [-10, 10, 10]
    page = client.get(game_url).text
    assert "−10" in page and "at once" in page
    edit = client.get(f"{game_url}/rounds/1/edit").text
    assert re.search(r'<input checked id="at_once" name="at_once" type="checkbox"', edit)
    liverpool = start_game(client, PLAYERS, ruleset="liverpool-rummy")
    assert 'name="at_once"' not in client.get(f"{liverpool}/rounds/new").text


def test_a_bonus_a_game_does_not_have_is_refused_in_words(api):
    gid = api.new_game(ruleset="liverpool-rummy")["id"]
    body = {"went_out": "Ann", "caught": {"Bob": "K", "Cy": "", "Di": ""}, "at_once": True}
    error = api.call("POST", f"/api/games/{gid}/rounds", body, 400)["error"]
    assert error == "round 1: Liverpool Rummy has no bonus for going down and out at once"
    assert api.call("GET", f"/api/games/{gid}")["version"] == 0
    body["at_once"] = "yes"
    assert "'at_once' must be true or false" in api.call("POST", f"/api/games/{gid}/rounds", body, 400)["error"]


def test_liverpool_takes_50_off_the_cutter_who_cuts_the_exact_deal(api):
    """docs/rules.md, Liverpool [W]: "if a player manages to cut the exact number of cards required to
    deal the hand and leave a face-up card, then the cutting player's score is reduced by 50 points";
    Carioca [P]: "If the player cuts perfectly, he receives -10 points", the cutter who goes out too."""
    gid = api.new_game(ruleset="liverpool-rummy")["id"]
    body = {"went_out": "Ann", "caught": {"Bob": "K", "Cy": "5", "Di": ""}, "cut_exactly": "cy"}
    state = api.call("POST", f"/api/games/{gid}/rounds", body, 201)
    cy = state["rounds"][0]["results"]["Cy"]
    assert cy["points"] == 5 - 50 and cy["cut_bonus"] == 50
    assert [p["points"] for p in state["players"]] == [0, 10, -45, 0]
    corrected = {**body, "cut_exactly": None}
    state = api.call("PUT", f"/api/games/{gid}/rounds/1", corrected)
    assert [p["points"] for p in state["players"]] == [0, 10, 5, 0]
    carioca = api.new_game(ruleset="carioca")["id"]
    body = {"went_out": "Ann", "caught": {"Bob": "K", "Cy": "", "Di": ""}, "cut_exactly": "Ann"}
    state = api.call("POST", f"/api/games/{carioca}/rounds", body, 201)
    assert [p["points"] for p in state["players"]] == [-10, 10, 0, 0]


def test_a_cut_a_game_has_no_bonus_for_or_by_nobody_at_the_table_is_refused_in_words(api):
    body: dict[str, object] = {"went_out": "Ann", "caught": {"Bob": "K", "Cy": "", "Di": ""}, "cut_exactly": "Bob"}
    gid = api.new_game()["id"]
    error = api.call("POST", f"/api/games/{gid}/rounds", body, 400)["error"]
    assert error == "round 1: Ten Pennies has no bonus for cutting the deck exactly"
    liverpool = api.new_game(ruleset="liverpool-rummy")["id"]
    body["cut_exactly"] = "Zed"
    assert api.call("POST", f"/api/games/{liverpool}/rounds", body, 400)["error"] == "'Zed' is not playing in this game"
    body["cut_exactly"] = True
    assert api.call("POST", f"/api/games/{liverpool}/rounds", body, 400)["error"] == "'cut_exactly' must be a string"
    assert [api.call("GET", f"/api/games/{g}")["version"] for g in (gid, liverpool)] == [0, 0]


def test_who_cut_exactly_is_chosen_on_the_round_form_and_kept_for_a_correction(client):
    """The choice is on the form only where the game has the bonus; the scorepad says "cut" beside the
    points it made; a correction of the round finds the cutter chosen; a name not at the table is
    refused and nothing is saved."""
    from test_pages import round_form, start_game

    game_url = start_game(client, PLAYERS, ruleset="liverpool-rummy")
    url = f"{game_url}/rounds/new"
    assert "Cut the deck exactly (50 points off)" in client.get(url).text
    data = round_form(client, url, "Ann", {"Bob": "K", "Cy": "5", "Di": ""}, PLAYERS)
    refused = client.post(url, data=data | {"cut_exactly": "Zed"})
    assert refused.status_code == 400 and "&#39;Zed&#39; is not playing in this game" in refused.text
    assert client.get("/api" + game_url).get_json()["version"] == 0
    assert client.post(url, data=data | {"cut_exactly": "Bob"}).status_code == 302
    assert [p["points"] for p in client.get("/api" + game_url).get_json()["players"]] == [0, -40, 5, 0]
    assert "cut" in client.get(game_url).text.split('aria-label="Scorepad"')[1]
    edit = client.get(f"{game_url}/rounds/1/edit").text
    assert re.search(r'<option selected value="Bob">Bob</option>', edit)
    continental = start_game(client, CONTINENTAL_PLAYERS, ruleset="continental")
    assert 'name="cut_exactly"' not in client.get(f"{continental}/rounds/new").text


def test_continental_deals_one_card_more_each_hand(api):
    """docs/rules.md: 7 cards in the first hand (two tríos and one over): 8 with no buy is refused."""
    gid = api.new_game(CONTINENTAL_PLAYERS, ruleset="continental")["id"]
    error = api.round(gid, "Ann", {"Bob": "2 3 4 5 6 7 8 9", "Cy": ""}, 400)["error"]
    assert "Bob is caught with 8 cards, but with 0 buys this round a player holds at most 7" in error


def test_continental_never_lays_two_jokers_side_by_side(api):
    """docs/rules.md: "no se coloquen dos comodines consecutivos" in an escalera; Carioca has no such rule."""
    body = {"ruleset": "continental", "round": 3, "stage": "first-down", "melds": ["5S JKR JKR 8S", "9H 10H JH QH"]}
    verdict = api.call("POST", "/api/melds/check", body)
    assert not verdict["valid"] and "two wild cards side by side" in verdict["reasons"][0]
    body["melds"] = ["JKR 5S JKR 7S", "QH KH AH 2H"]  # 4 to 7 with the jokers apart; an escalera passes the ace
    assert api.call("POST", "/api/melds/check", body)["valid"]
    hand = {"cards": "5S 8S JKR JKR 9H 10H JH QH"}  # 5♠ to 8♠ needs both jokers together
    gid = api.new_game(CONTINENTAL_PLAYERS, ruleset="continental")["id"]
    assert not api.call("POST", f"/api/games/{gid}/rounds/3/can-go-down", hand)["makes_contract"]
    gid = api.new_game(CONTINENTAL_PLAYERS, ruleset="carioca")["id"]
    assert api.call("POST", f"/api/games/{gid}/rounds/3/can-go-down", hand)["makes_contract"]
    layoff = {"ruleset": "continental", "round": 3, "stage": "layoff", "onto": "5S 6S 7S 8S", "melds": ["JKR JKR JKR"]}
    verdict = api.call("POST", "/api/melds/check", layoff)
    assert not verdict["valid"] and "no two wilds side by side" in verdict["reasons"][0]
    layoff["melds"] = ["JKR JKR"]  # one at each end
    assert api.call("POST", "/api/melds/check", layoff)["valid"]


# --- Pennies From Heaven ---------------------------------------------------------------------


def side(players, red=0, books=None, melded=None, points=None, hands=None, piles=None):
    hands = {name: "" for name in players} | (hands or {})
    entry = {"players": players, "red_threes": red, "books": books or {}, "hands": hands, "piles": piles or {}}
    if melded is not None:
        entry["melded"] = melded
    if points is not None:
        entry["melded_points"] = points
    return entry


PFH_HANDS = [
    # Hand 1 (board 50). Ann goes out.
    # Ann & Cy: out 100 + 2 red threes 200 + natural 500 + sevens 1500 + wild 1500 = 3800, + 640 melded = 4440.
    # Bob & Di: 1 red three 100 + K K K Q Q Q 60 − (4 5 + K 10 + black 3 100 + JKR 50 = 165) = −5.
    (
        "Ann",
        [
            side(TEAMS[0], 2, {"natural": 1, "sevens": 1, "wild": 1}, points=640, hands={"Ann": "", "Cy": ""}),
            side(TEAMS[1], 1, melded="K K K Q Q Q", hands={"Bob": "4 K 3S", "Di": "JKR"}),
        ],
    ),
    # Hand 2 (Ann & Cy need 90; Bob & Di are below zero and need only 15). Bob goes out (with a natural book:
    # RULES.md). Bob & Di: out 100 + 4 red threes at 200 = 800 + natural 500 + sevens 1500 + wild 1500 = 4400,
    # + 400 = 4800.
    # Ann & Cy: natural book 500 + seven aces 140 − (2 2 = 40) = 600.
    (
        "Bob",
        [
            side(TEAMS[0], 0, {"natural": 1}, melded="A A A A A A A", hands={"Ann": "2 2", "Cy": ""}),
            side(TEAMS[1], 4, {"natural": 1, "sevens": 1, "wild": 1}, points=400),
        ],
    ),
    # Hand 3 (board 120). Ann goes out before Bob & Di get on the board: their piles count against them.
    # Going out takes a natural book too (RULES.md: the pile is picked up only after the first natural book).
    # Ann & Cy: out 100 + natural 500 + sevens 1500 + wild 1500 = 3600, + 300 = 3900.
    # Bob & Di: − (K K 20 + 3C 100 + 5 5 + fifteen 5-point cards 75 + fifteen 10-point cards 150) = −350.
    (
        "Ann",
        [
            side(TEAMS[0], 0, {"natural": 1, "sevens": 1, "wild": 1}, points=300),
            side(
                TEAMS[1],
                0,
                hands={"Bob": "K K", "Di": "3C 5"},
                piles={"Bob": "4 4 4 4 4 5 5 5 5 5 6 6 6 6 6", "Di": "K K K K K Q Q Q Q Q J J J J J"},
            ),
        ],
    ),
]
ALL_BOOKS = {"natural": 1, "sevens": 1, "wild": 1}  # what going out takes
PFH_TOTALS = {"Ann & Cy": 4440 + 600 + 3900, "Bob & Di": -5 + 4800 - 350}


def new_pfh(api):
    return api.call(
        "POST",
        "/api/games",
        {"ruleset": "pennies-from-heaven", "players": PLAYERS, "teams": TEAMS, "first_dealer": "Ann"},
        201,
    )


def test_pennies_from_heaven_whole_game_through_the_api(api):
    game = new_pfh(api)
    gid = game["id"]
    assert game["decks"] == 6 and [s["board_minimum"] for s in game["sides"]] == [50, 50]
    for number, (went_out, sides) in enumerate(PFH_HANDS, start=1):
        state = api.call("POST", f"/api/games/{gid}/rounds", {"went_out": went_out, "sides": sides}, 201)
        if number == 1:
            assert [s["board_minimum"] for s in state["sides"]] == [90, 15]
            assert state["rounds"][0]["results"]["Bob & Di"] == {
                "score": -5,
                "bonus": 100,
                "melded": 60,
                "deducted": 165,
                "red_threes": 1,
                "went_out": False,
                "books": {"natural": 0, "mixed": 0, "sevens": 0, "wild": 0},
            }
    assert state["finished"]
    assert {s["name"]: s["points"] for s in state["sides"]} == PFH_TOTALS
    assert state["winners"] == ["Ann & Cy"]
    assert {p["name"]: p["points"] for p in state["players"]} == {"Ann": 8940, "Cy": 8940, "Bob": 4445, "Di": 4445}


@pytest.mark.parametrize(
    "went_out, sides, words",
    [
        (
            "Ann",
            [side(TEAMS[0], books={"natural": 1, "wild": 1}, points=600), side(TEAMS[1], points=60)],
            "Ann & Cy cannot go out without a book of sevens",
        ),
        (None, [side(TEAMS[0], melded="K K K 3S"), side(TEAMS[1])], "black threes cannot be melded"),
        (None, [side(TEAMS[0], melded="K K K 3H"), side(TEAMS[1])], "count them under red threes"),
        (
            None,
            [side(TEAMS[0], melded="K K K"), side(TEAMS[1])],
            "melded 30 points, but getting on the board in hand 1 takes 50",
        ),
        (
            None,
            [side(TEAMS[0], books={"natural": 2}, melded="K K K K K K K Q Q Q Q"), side(TEAMS[1])],
            "2 closed books need at least 14 melded cards; 11 were entered",
        ),
        (
            "Ann",
            [side(TEAMS[0], books=ALL_BOOKS, points=200), side(TEAMS[1], points=60, piles={"Bob": "K"})],
            "piles count only against a side caught off the board",
        ),
        (
            "Ann",
            [side(TEAMS[0], books=ALL_BOOKS, points=200, hands={"Cy": "K"}), side(TEAMS[1])],
            "Ann & Cy went out, so Cy discards what is left",
        ),
        # RULES.md: no natural book, no pile picked up, so no going out (the audit's case).
        (
            "Ann",
            [side(TEAMS[0], books={"sevens": 1, "wild": 1}, points=200), side(TEAMS[1], points=60)],
            "Ann & Cy cannot go out without a natural (red) book (no pile can be picked up before the first natural",
        ),
        # RULES.md: a side caught off the board counts every player's pile, never picked up: 15 cards or points.
        (
            "Ann",
            [side(TEAMS[0], books=ALL_BOOKS, points=200), side(TEAMS[1], piles={"Di": 150})],
            "enter Bob's pile: Bob & Di is caught off the board, so its piles count against it (15 cards, or the",
        ),
        (
            "Ann",
            [side(TEAMS[0], books=ALL_BOOKS, points=200), side(TEAMS[1], piles={"Bob": "K K K", "Di": 150})],
            "Bob's pile holds 15 cards (never picked up); 3 were entered",
        ),
        (None, [side(TEAMS[0], red=-1), side(TEAMS[1])], "red threes must be a whole number"),
        (None, [side(TEAMS[0], books={"golden": 1}), side(TEAMS[1])], "golden is not a kind of book"),
        (None, [side(TEAMS[0], hands={"Ann": "K X"}), side(TEAMS[1])], "Ann's cards: card 2 ('X') is not a card"),
        (None, [side(TEAMS[0])], "enter the hand for the side Bob & Di"),
        (None, [side(["Ann", "Bob"]), side(["Cy", "Di"])], "enter the hand for the side Ann & Cy"),
    ],
)
def test_pennies_from_heaven_refusals(api, went_out, sides, words):
    gid = new_pfh(api)["id"]
    body = {"went_out": went_out, "sides": sides}
    error = api.call("POST", f"/api/games/{gid}/rounds", body, 400)["error"]
    assert words in error
    assert api.call("GET", f"/api/games/{gid}")["version"] == 0


@pytest.mark.parametrize(
    "teams, words",
    [
        ([["Ann", "Cy", "Di"], ["Bob"]], "teams must be of equal size, not 1 and 3 players"),
        ([["Ann", "Cy"], ["Bob"]], "Di is in no team"),
        ([["Ann", "Cy", "Bob", "Di"]], "at least two sides"),
        ([["Ann", "Cy"], ["Bob", "Di", "Ann"]], "exactly once"),
    ],
)
def test_unequal_or_broken_teams_refused(api, teams, words):
    body = {"ruleset": "pennies-from-heaven", "players": PLAYERS, "teams": teams}
    assert words in api.call("POST", "/api/games", body, 400)["error"]


def test_teams_only_in_pennies_from_heaven(api):
    body = {"ruleset": "ten-pennies", "players": PLAYERS, "teams": TEAMS}
    assert "played by each player alone" in api.call("POST", "/api/games", body, 400)["error"]


def test_correcting_a_hand_changes_the_next_board_minimum(api):
    gid = new_pfh(api)["id"]
    api.call("POST", f"/api/games/{gid}/rounds", {"went_out": PFH_HANDS[0][0], "sides": PFH_HANDS[0][1]}, 201)
    fixed = [PFH_HANDS[0][1][0], side(TEAMS[1], 1, melded="K K K Q Q Q", hands={"Bob": "4", "Di": ""})]
    state = api.call("PUT", f"/api/games/{gid}/rounds/1", {"went_out": "Ann", "sides": fixed})
    assert state["rounds"][0]["corrected"]
    assert {s["name"]: (s["points"], s["board_minimum"]) for s in state["sides"]} == {
        "Ann & Cy": (4440, 90),
        "Bob & Di": (155, 90),
    }


def counted(players, points=None, hand_points=None):
    """A side entered as the table counted it: melded points and each hand's points (a number)."""
    return side(players, points=points, hands={name: 0 for name in players} | (hand_points or {}))


def test_the_board_minimum_reads_the_sum_of_every_hand_before(api):
    """RULES.md: a side below zero needs only 15 to get on the board. Bob & Di lose 101 in hand 1 and
    make 100 in hand 2: at −1 in all, 20 melded in hand 3 gets them on the board (not their last
    hand's +100, nor 100 less 101)."""
    gid = new_pfh(api)["id"]
    hands = [
        [counted(TEAMS[0], points=50), counted(TEAMS[1], hand_points={"Bob": 101})],
        [counted(TEAMS[0], points=90), counted(TEAMS[1], points=100)],
    ]
    for sides in hands:
        api.call("POST", f"/api/games/{gid}/rounds", {"went_out": None, "sides": sides}, 201)
    state = api.call("GET", f"/api/games/{gid}")
    assert {s["name"]: (s["points"], s["board_minimum"]) for s in state["sides"]} == {
        "Ann & Cy": (140, 120),
        "Bob & Di": (-1, 15),
    }
    third = [counted(TEAMS[0], points=120), counted(TEAMS[1], points=20)]
    api.call("POST", f"/api/games/{gid}/rounds", {"went_out": None, "sides": third}, 201)


@pytest.mark.parametrize(
    "sides, words, player",
    [
        ([counted(TEAMS[0], points=60)], "enter the hand for the side Bob & Di", "Bob"),
        (
            [counted(TEAMS[0], points=60), {**counted(TEAMS[1]), "hands": {"Bob": 0}}],
            "enter the cards left in hand for Di (empty is allowed)",
            "Di",
        ),
        (
            [counted(TEAMS[0], points=60), {**counted(TEAMS[1]), "hands": {}}],
            "enter the cards left in hand for Bob and Di (empty is allowed)",
            "Bob",
        ),
    ],
)
def test_a_hand_not_entered_is_named_with_its_player(api, sides, words, player):
    gid = new_pfh(api)["id"]
    refused = api.call("POST", f"/api/games/{gid}/rounds", {"went_out": None, "sides": sides}, 400)
    assert words in refused["error"] and refused["player"] == player


# --- through the pages --------------------------------------------------------------------


def post_page(client, url, data):
    page = client.get(url).text
    version = found(r'name="version" type="hidden" value="(\d+)"', page)
    return client.post(url, data={"csrf_token": csrf_token(page), "version": version, **data})


def hand_form_data(went_out, sides):
    data = {"went_out": went_out or "nobody"}
    for i, entry in enumerate(sides):
        data[f"sides-{i}-red_threes"] = str(entry["red_threes"])
        for kind, count in entry["books"].items():
            data[f"sides-{i}-{kind}"] = str(count)
        data[f"sides-{i}-melded"] = entry.get("melded", "")
        data[f"sides-{i}-melded_points"] = str(entry.get("melded_points", ""))
        for j, name in enumerate(entry["players"]):
            data[f"sides-{i}-hands-{j}"] = entry["hands"].get(name, "")
            data[f"sides-{i}-piles-{j}"] = entry["piles"].get(name, "")
    return data


def new_game_page(client, ruleset, teams="0"):
    page = client.get("/games/new").text
    data = {"csrf_token": csrf_token(page), "ruleset": ruleset, "first_dealer": "0", "penny_cents": "1", "teams": teams}
    for seat in range(8):
        data[f"players-{seat}"] = PLAYERS[seat] if seat < 4 else ""
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, response.text
    return response.headers["Location"]


def test_pennies_from_heaven_whole_game_through_the_pages(client):
    game_url = new_game_page(client, "pennies-from-heaven", teams="2")  # partners across: Ann & Cy, Bob & Di
    page = client.get(game_url).text
    assert "Get on the board with" in page and "Ann &amp; Cy: 50" in page and "13 for the hand, 15 for the pile" in page
    for went_out, sides in PFH_HANDS:
        response = post_page(client, f"{game_url}/rounds/new", hand_form_data(went_out, sides))
        assert response.status_code == 302, re.findall(r'class="flash flash-error".*?</div>', response.text, re.S)
    page = client.get(game_url).text
    assert "Game over" in page and "<strong>Ann &amp; Cy</strong>" in page and "with 8940 points" in page
    assert "books 1/0/1/1 · red 3s 2" in page and "+3800 bonus +640 melded −0" in page
    history = client.get(f"{game_url}/history").text
    assert "Hand 1: Ann went out" in history


def test_pennies_from_heaven_page_refuses_and_keeps_what_was_typed(client):
    game_url = new_game_page(client, "pennies-from-heaven", teams="2")
    bad = hand_form_data(None, [side(TEAMS[0], melded="K K K 3S"), side(TEAMS[1])])
    response = post_page(client, f"{game_url}/rounds/new", bad)
    assert response.status_code == 400 and "black threes cannot be melded" in response.text
    assert 'value="K K K 3S"' in response.text


def test_a_save_refused_for_a_pile_opens_that_pile_with_the_reason_beside_it(client):
    """Issue 60: "the piles of a side caught off the board sit in a closed, unmarked fold that stays closed
    when Save is refused for them"."""
    game_url = new_game_page(client, "pennies-from-heaven", teams="2")  # Ann & Cy, Bob & Di
    out = side(TEAMS[0], books=ALL_BOOKS, points=200)
    response = post_page(client, f"{game_url}/rounds/new", hand_form_data("Ann", [out, side(TEAMS[1])]))
    assert response.status_code == 400
    folds = re.findall(r'<details class="pile"( open)?>\s*<summary>(\w+)\'s pile', html.unescape(response.text))
    assert dict((name, bool(is_open)) for is_open, name in folds) == {
        "Ann": False,
        "Cy": False,
        "Bob": True,
        "Di": False,
    }
    bobs = html.unescape(response.text).split("Bob's pile — only when")[1].split("</details>")[0]
    assert "enter Bob's pile: Bob & Di is caught off the board" in bobs


def test_ten_card_rummy_whole_game_through_the_pages(client):
    game_url = new_game_page(client, "ten-card-rummy")
    for number in range(1, 12):
        if number == 4:
            for _ in range(4):
                page = client.get(game_url).text
                version = found(r'name="version" type="hidden" value="(\d+)"', page)
                client.post(
                    f"{game_url}/buys", data={"csrf_token": csrf_token(page), "player": "Bob", "version": version}
                )
        went_out, caught = tcr_round(number)
        data = {"went_out": went_out, **{f"caught-{PLAYERS.index(n)}": h for n, h in caught.items()}}
        response = post_page(client, f"{game_url}/rounds/new", data)
        assert response.status_code == 302, response.text
    page = client.get(game_url).text
    assert "+100 pen." in page and "Game over" in page
    totals_row = found(r'(?s)<tr class="totals">(.*?)</tr>', page)
    assert [int(n) for n in re.findall(r">(-?\d+)</td>", totals_row)] == list(tcr_expected().values())


def test_pennies_from_heaven_start_passes_left_each_hand(api, client):
    gid = new_pfh(api)["id"]
    assert '<span class="badge first">Ann</span>' in client.get(f"/games/{gid}").text
    api.call("POST", f"/api/games/{gid}/rounds", {"went_out": PFH_HANDS[0][0], "sides": PFH_HANDS[0][1]}, 201)
    assert '<span class="badge first">Bob</span>' in client.get(f"/games/{gid}").text


def test_piles_and_hands_entered_as_the_points_the_table_counted(api):
    """RULES.md: hands and piles may be entered as the points counted (an integer) instead of their cards."""
    gid = new_pfh(api)["id"]
    sides = [
        side(TEAMS[0], 0, ALL_BOOKS, points=300),
        {
            "players": TEAMS[1],
            "red_threes": 0,
            "books": {},
            "hands": {"Bob": 35, "Di": "K"},
            "piles": {"Bob": 150, "Di": "4 4 4 4 4 5 5 5 5 5 6 6 6 6 6"},
        },
    ]
    state = api.call("POST", f"/api/games/{gid}/rounds", {"went_out": "Ann", "sides": sides}, 201)
    # Bob & Di: − (35 counted + K 10 + 150 counted + fifteen 5-point cards 75) = −270.
    assert state["rounds"][0]["results"]["Bob & Di"]["deducted"] == 270
    assert state["rounds"][0]["results"]["Bob & Di"]["score"] == -270


# --- Pennies From Heaven: the live side totals, and points instead of cards on the page -----------


def test_preview_of_a_hand_scores_each_side_without_saving(api):
    gid = new_pfh(api)["id"]
    went_out, sides = PFH_HANDS[0]
    answer = api.call("POST", f"/api/games/{gid}/preview", {"went_out": went_out, "sides": sides})
    # Hand 1 worked out above: Ann & Cy 4440, Bob & Di −5; totals are the hand's (the first one).
    assert answer == {
        "sides": {"Ann & Cy": {"score": 4440, "total": 4440}, "Bob & Di": {"score": -5, "total": -5}},
        "problem": None,
        "player": None,
    }
    assert api.call("GET", f"/api/games/{gid}")["version"] == 0  # nothing saved


def test_preview_shows_each_side_while_the_hand_is_refused(api):
    gid = new_pfh(api)["id"]
    api.call("POST", f"/api/games/{gid}/rounds", {"went_out": PFH_HANDS[0][0], "sides": PFH_HANDS[0][1]}, 201)
    # Hand 2, Ann going out before her side has its book of sevens: refused, and said why; each
    # side's score as entered still shows. Ann & Cy: out 100 + 1 red three 100 + natural 500 + wild 1500
    # + 200 melded = 2400 (total 4440 + 2400); Bob & Di: 1 red three 100 + 60 melded − 20 (A) = 140.
    sides = [
        side(TEAMS[0], 1, {"natural": 1, "wild": 1}, points=200),
        side(TEAMS[1], 1, melded="K K K Q Q Q", hands={"Bob": "A", "Di": ""}),
    ]
    answer = api.call("POST", f"/api/games/{gid}/preview", {"went_out": "Ann", "sides": sides})
    assert answer["problem"] == "hand 2: Ann & Cy cannot go out without a book of sevens"
    assert answer["player"] == "Ann"
    assert answer["sides"] == {
        "Ann & Cy": {"score": 2400, "total": 6840},
        "Bob & Di": {"score": 140, "total": 135},
    }


def test_preview_refuses_what_cannot_be_read_naming_it(api):
    gid = new_pfh(api)["id"]
    sides = [side(TEAMS[0]), side(TEAMS[1], hands={"Bob": "K Z"})]
    answer = api.call("POST", f"/api/games/{gid}/preview", {"went_out": None, "sides": sides}, 400)
    assert "Bob's cards" in answer["error"] and "'Z'" in answer["error"]


def piles_as_points_form(hand_points=None, pile_points=None, pile_cards=None):
    """Hand 3 of PFH_HANDS through the page, Bob & Di's piles given as the points the table counted."""
    went_out, sides = PFH_HANDS[2]
    data = hand_form_data(went_out, sides)
    for j, name in enumerate(TEAMS[1]):
        data[f"sides-1-piles-{j}"] = (pile_cards or {}).get(name, "")
        data[f"sides-1-pile_points-{j}"] = str((pile_points or {}).get(name, ""))
        if hand_points and name in hand_points:
            data[f"sides-1-hands-{j}"] = ""
            data[f"sides-1-hand_points-{j}"] = str(hand_points[name])
    return data


def test_piles_and_hands_entered_as_points_on_the_page(client):
    game_url = new_game_page(client, "pennies-from-heaven", teams="2")
    for went_out, sides in PFH_HANDS[:2]:
        assert post_page(client, f"{game_url}/rounds/new", hand_form_data(went_out, sides)).status_code == 302
    # Bob's pile: fifteen 5-point cards = 75; Di's: fifteen 10-point cards = 150; Di's hand 3C 5 = 105.
    # Bob & Di: −(20 + 105 + 75 + 150) = −350, as with every card typed.
    data = piles_as_points_form(hand_points={"Di": 105}, pile_points={"Bob": 75, "Di": 150})
    response = post_page(client, f"{game_url}/rounds/new", data)
    assert response.status_code == 302, re.findall(r'class="flash flash-error".*?</div>', response.text, re.S)
    state = client.get("/api" + game_url).get_json()
    assert {s["name"]: s["points"] for s in state["sides"]} == PFH_TOTALS
    # Correcting the hand shows the points as they were entered.
    page = client.get(f"{game_url}/rounds/3/edit").text
    assert re.search(r'name="sides-1-pile_points-0"[^>]* value="75"', page)
    assert re.search(r'name="sides-1-hand_points-1"[^>]* value="105"', page)


def test_a_pile_as_points_and_as_cards_is_refused_keeping_both(client):
    game_url = new_game_page(client, "pennies-from-heaven", teams="2")
    for went_out, sides in PFH_HANDS[:2]:
        post_page(client, f"{game_url}/rounds/new", hand_form_data(went_out, sides))
    data = piles_as_points_form(pile_points={"Bob": 75, "Di": 150}, pile_cards={"Bob": "4 4 4"})
    response = post_page(client, f"{game_url}/rounds/new", data)
    assert response.status_code == 400
    assert "Bob&#39;s pile: give its points or its cards, not both" in response.text
    assert 'value="4 4 4"' in response.text and 'value="75"' in response.text
    assert client.get("/api" + game_url).get_json()["version"] == 2


def test_a_count_that_is_not_a_number_is_named_on_the_page(client):
    game_url = new_game_page(client, "pennies-from-heaven", teams="2")
    data = hand_form_data(None, [side(TEAMS[0]), side(TEAMS[1])]) | {"sides-0-pile_points-0": "lots"}
    response = post_page(client, f"{game_url}/rounds/new", data)
    assert response.status_code == 400 and "Not a valid integer value" in response.text
    assert 'value="lots"' in response.text


def test_ten_card_rummy_buys_are_bounded_by_the_stock(api):
    """RULES.md: all players' buys in one round take at most (cards in the decks − cards dealt) / 2.
    Four players: 2 decks + 4 jokers = 108 cards, 40 dealt, so 68 / 2 = 34 buys in round 4."""
    gid = api.new_game(ruleset="ten-card-rummy")["id"]
    for _ in range(3):
        api.round(gid, "Ann", {"Bob": "", "Cy": "", "Di": ""})
    for i in range(34):
        api.buy(gid, ["Ann", "Bob", "Cy", "Di"][i % 4])
    refused = api.call("POST", f"/api/games/{gid}/buys", {"player": "Cy"}, 400)
    assert refused["error"] == (
        "the stock is used up: the 34 buys of round 4 took every card left after the deal (2 a buy); "
        "another buy is refused"
    )
    assert refused["player"] == "Cy"
    api.round(gid, "Ann", {"Bob": "", "Cy": "", "Di": ""})
    api.buy(gid, "Cy")  # a new round, a new stock


def test_a_side_of_two_that_wins_is_said_as_two(api, client):
    """Issue 60: the card said "Ann & Cy wins"; a side of two players wins as two."""
    gid = new_pfh(api)["id"]
    for went_out, sides in PFH_HANDS:
        api.call("POST", f"/api/games/{gid}/rounds", {"went_out": went_out, "sides": sides}, 201)
    headline = client.get(f"/games/{gid}/card.txt").text.splitlines()[1]
    assert headline.startswith("Ann & Cy win with "), headline
