"""Players enter their own hands (issue 27): a draft per player for the round in play, checked as it
is typed, shown to the scorekeeper, never an entry — no points, pennies, version or history move until
the scorekeeper saves the round. Ten Pennies points (RULES.md): 3–9 count 5, 10–K 10, A and 2 20,
a joker 50; a penny a card caught."""

from __future__ import annotations

import html
import json
import re

import pytest
from support import PLAYERS, Api

from scorekeeper.rules.cards import parse_hand


def drafts_url(gid: int, number: int) -> str:
    return f"/api/games/{gid}/rounds/{number}/drafts"


def put(client, gid, number, player, body, status=200):
    answer = client.put(f"{drafts_url(gid, number)}/{player}", json=body)
    assert answer.status_code == status, answer.get_json()
    return answer.get_json()


def test_a_draft_is_scored_shown_and_changes_nothing_in_the_game(api: Api, client):
    gid = api.new_game()["id"]
    before = api.call("GET", f"/api/games/{gid}")
    history = api.call("GET", f"/api/games/{gid}/history")
    answer = put(client, gid, 1, "bob", {"cards": "K 7 JKR"})  # a name as typed, any case
    assert answer == {"player": "Bob", "round": 1, "cards": "K 7 JKR", "points": 65, "pennies": 3, "correction": False}
    put(client, gid, 1, "Cy", {"cards": ""})  # caught with nothing is a hand too
    put(client, gid, 1, "Bob", {"cards": "K 7"})  # a draft is replaced as the player types
    shown = api.call("GET", drafts_url(gid, 1))
    assert [(d["player"], d["cards"], d["points"], d["pennies"]) for d in shown["drafts"]] == [
        ("Bob", "K 7", 15, 2),
        ("Cy", "", 0, 0),
    ]
    after = api.call("GET", f"/api/games/{gid}")
    assert after == before  # version, points, pennies, bowl, history: all as they were
    assert api.call("GET", f"/api/games/{gid}/history") == history


def test_the_scorekeepers_save_records_the_round_and_clears_its_drafts(api: Api, client):
    gid = api.new_game()["id"]
    put(client, gid, 1, "Bob", {"cards": "K 7"})
    api.round(gid, "Ann", {"Bob": "K 7", "Cy": "", "Di": ""})
    assert api.call("GET", drafts_url(gid, 1))["drafts"] == []
    late = put(client, gid, 1, "Cy", {"cards": "5"}, status=409)
    assert late["error"] == "round 1 was saved already: tell the scorekeeper, or send it as a correction request"
    early = put(client, gid, 3, "Cy", {"cards": "5"}, status=409)
    assert early["error"] == "round 3 has not begun: this is round 2"


def test_a_draft_is_checked_as_it_is_typed(api: Api, client):
    """A player sees their own mistake at once: too many cards for their buys, more of a card than the
    decks hold, a card that is not a card, a player not at the table; every input bounded."""
    gid = api.new_game()["id"]
    too_many = put(client, gid, 1, "Bob", {"cards": " ".join(["5"] * 12)}, status=400)
    assert too_many["error"].startswith("round 1: Bob is caught with 12 cards, but with 0 buys this round a player")
    jokers = put(client, gid, 1, "Bob", {"cards": " ".join(["JKR"] * 9)}, status=400)
    assert jokers["error"].startswith("round 1: the hands hold 9 × JKR")
    assert "Bob's cards:" in put(client, gid, 1, "Bob", {"cards": "K 7 Z"}, status=400)["error"]
    assert "Zed" in put(client, gid, 1, "Zed", {"cards": "K"}, status=400)["error"]
    huge = put(client, gid, 1, "Bob", {"cards": "K " * 150}, status=400)
    assert huge["error"] == "a hand is at most 200 characters, not 300"
    assert api.call("GET", drafts_url(gid, 1))["drafts"] == []  # nothing refused was kept


def test_a_phone_that_said_who_it_is_enters_only_that_hand(api: Api, client):
    gid = api.new_game()["id"]
    assert client.put(f"/api/games/{gid}/phone", json={"player": "bob"}).get_json() == {"player": "Bob"}
    put(client, gid, 1, "Bob", {"cards": "K"})
    refused = put(client, gid, 1, "Ann", {"cards": "5"}, status=409)
    assert refused["error"] == (
        "this phone entered hands as Bob: Ann's hand is entered on Ann's phone (or by the scorekeeper)"
    )
    client.put(f"/api/games/{gid}/phone", json={"player": None})
    put(client, gid, 1, "Ann", {"cards": "5"})  # the phone is nobody's now (the scorekeeper's tablet)


def test_a_locked_game_takes_drafts_from_players_without_the_pin(api: Api, client, app):
    gid = api.new_game(pin="2468")["id"]
    other = app.test_client()  # a player's phone: never unlocked
    answer = other.put(f"{drafts_url(gid, 1)}/Cy", json={"cards": "Q"})
    assert answer.status_code == 200 and answer.get_json()["points"] == 10
    caught = {"Bob": "", "Cy": "Q", "Di": ""}
    refused = other.post(f"/api/games/{gid}/rounds", json={"went_out": "Ann", "caught": caught})
    assert refused.status_code in (401, 403)  # only an unlocked device saves


def test_drafts_by_sides_are_points_left_in_hand(api: Api, client):
    gid = api.call(
        "POST", "/api/games", {"ruleset": "pennies-from-heaven", "players": ["Ann", "Bob"], "first_dealer": "Ann"}, 201
    )["id"]
    assert put(client, gid, 1, "Bob", {"points": 35})["points"] == 35
    assert "points left" in put(client, gid, 1, "Bob", {"cards": "K"}, status=400)["error"]
    assert api.call("GET", drafts_url(gid, 1))["drafts"][0]["points"] == 35


# --- a draft belongs to the round it was typed in (issue 40) --------------------------------------


def event_ids(api: Api, gid: int) -> list[int]:
    return [entry["id"] for entry in api.call("GET", f"/api/games/{gid}/history")]  # oldest first


def test_a_late_hand_for_a_saved_round_is_kept_only_as_a_correction_request(api: Api, client):
    """Cy taps a forgotten 9 as round 1 is saved: the phone sends it for round 1, never round 2. The
    server refuses it as a draft, takes it when Cy sends it as a correction request, and the
    scorekeeper sees it on the game page and in round 1's correction form; round 2 has no draft."""
    gid = api.new_game()["id"]
    api.round(gid, "Ann", {"Bob": "K 7", "Cy": "5 5 5", "Di": ""})
    late = put(client, gid, 1, "Cy", {"cards": "5 5 5 9"}, status=409)
    assert late["error"] == "round 1 was saved already: tell the scorekeeper, or send it as a correction request"
    asked = put(client, gid, 1, "Cy", {"cards": "5 5 5 9", "correction": True})
    assert asked == {"player": "Cy", "round": 1, "cards": "5 5 5 9", "points": 20, "pennies": 4, "correction": True}
    assert [(d["player"], d["cards"]) for d in api.call("GET", drafts_url(gid, 1))["drafts"]] == [("Cy", "5 5 5 9")]
    assert api.call("GET", drafts_url(gid, 2))["drafts"] == []
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert "Cy's phone, for round 1: <strong>5 5 5 9</strong> (20 points)" in html.unescape(page)
    assert f'href="/games/{gid}/rounds/1/edit">Correct round 1</a>' in page
    assert api.call("GET", f"/api/games/{gid}")["version"] == 1  # a request moves nothing in the game


def test_a_correction_request_is_for_a_saved_round_only(api: Api, client):
    gid = api.new_game()["id"]
    now = put(client, gid, 1, "Cy", {"cards": "9", "correction": True})  # the round in play: a plain draft
    assert now["correction"] is False
    early = put(client, gid, 2, "Cy", {"cards": "9", "correction": True}, status=409)
    assert early["error"] == "round 2 has not begun: this is round 1"
    assert (
        "'correction' must be true or false" in put(client, gid, 1, "Cy", {"cards": "9", "correction": 1}, 400)["error"]
    )


def test_a_late_hand_after_the_last_round_can_still_ask_for_a_correction(api: Api, client):
    gid = api.new_game()["id"]
    for _ in range(7):
        api.round(gid, "Ann", {"Bob": "K", "Cy": "5", "Di": ""})
    late = put(client, gid, 7, "Cy", {"cards": "5 9"}, status=409)
    assert late["error"] == "round 7 was saved already: tell the scorekeeper, or send it as a correction request"
    assert put(client, gid, 7, "Cy", {"cards": "5 9", "correction": True})["points"] == 10
    over = put(client, gid, 8, "Cy", {"cards": "5"}, status=409)
    assert over["error"] == "the game is over: there is no round 8 to enter a hand for"


def test_correcting_a_round_clears_its_correction_requests_and_no_other(api: Api, client):
    gid = api.new_game()["id"]
    api.round(gid, "Ann", {"Bob": "K", "Cy": "5", "Di": ""})
    api.round(gid, "Bob", {"Ann": "K", "Cy": "5", "Di": ""})
    put(client, gid, 1, "Cy", {"cards": "5 9", "correction": True})
    put(client, gid, 2, "Di", {"cards": "Q", "correction": True})
    put(client, gid, 3, "Bob", {"cards": "7"})
    api.call("PUT", f"/api/games/{gid}/rounds/1", {"went_out": "Ann", "caught": {"Bob": "K", "Cy": "5 9", "Di": ""}})
    assert api.call("GET", drafts_url(gid, 1))["drafts"] == []
    assert [d["player"] for d in api.call("GET", drafts_url(gid, 2))["drafts"]] == ["Di"]
    assert [d["player"] for d in api.call("GET", drafts_url(gid, 3))["drafts"]] == ["Bob"]
    api.buy(gid, "Ann")  # an entry that changes no round keeps every draft
    assert [d["player"] for d in api.call("GET", drafts_url(gid, 2))["drafts"]] == ["Di"]


def test_a_round_put_back_from_history_drops_the_drafts_sent_while_it_was_undone(api: Api, client):
    """Round 1 undone, Cy's phone sends a hand for round 1 again, the scorekeeper puts round 1 back
    from History: "Correct round 1" must not fill Cy's line with that draft (it moved Cy 0 → 100)."""
    gid = api.new_game()["id"]
    api.round(gid, "Ann", {"Bob": "K", "Cy": "", "Di": ""})
    round_entry = event_ids(api, gid)[0]
    api.call("POST", f"/api/games/{gid}/undo", {"event": round_entry}, 201)
    put(client, gid, 1, "Cy", {"cards": "JKR JKR"})
    undo = event_ids(api, gid)[-1]
    api.call("POST", f"/api/games/{gid}/undo", {"event": undo}, 201)  # the undo undone: round 1 back
    assert api.call("GET", drafts_url(gid, 1))["drafts"] == []
    assert api.call("GET", f"/api/games/{gid}")["players"][2]["points"] == 0


def test_undoing_a_round_drops_the_drafts_of_the_round_after_it(api: Api, client):
    """A draft for round 2 typed before round 1 was undone is not waiting when round 1 is saved again."""
    gid = api.new_game()["id"]
    api.round(gid, "Ann", {"Bob": "K", "Cy": "", "Di": ""})
    put(client, gid, 2, "Cy", {"cards": "5"})
    api.call("POST", f"/api/games/{gid}/undo", {"event": event_ids(api, gid)[0]}, 201)
    api.round(gid, "Ann", {"Bob": "K", "Cy": "", "Di": ""})
    assert api.call("GET", drafts_url(gid, 2))["drafts"] == []


def test_a_hand_the_rules_refuse_answers_alike_as_a_draft_a_preview_and_a_save(api: Api, client):
    """One refusal, one code: 12 cards for Bob with no buys is bad input wherever it is sent (400),
    in the same words; only a round saved or not begun is a conflict with the game (409)."""
    gid = api.new_game()["id"]
    twelve = " ".join(["5"] * 12)
    caught = {"Bob": twelve, "Cy": "", "Di": ""}
    draft = put(client, gid, 1, "Bob", {"cards": twelve}, status=400)
    preview = api.call("POST", f"/api/games/{gid}/preview", {"went_out": "Ann", "caught": caught}, 400)
    saved = api.call("POST", f"/api/games/{gid}/rounds", {"went_out": "Ann", "caught": caught}, 400)
    assert draft["error"] == preview["error"] == saved["error"]
    assert draft["player"] == preview["player"] == saved["player"] == "Bob"


def test_a_draft_counts_the_penalty_of_the_buys_beyond_the_free_ones(rulesets):
    """Ten Card Rummy: 3 free buys a round, each one more 100 points (RULES.md); a draft entered on a
    player's phone says so before the round is saved."""
    from scorekeeper.rules.scoring import score_draft

    ruleset = rulesets["ten-card-rummy"]
    assert score_draft(ruleset, 2, "Ann", parse_hand("K 5"), 3).points == 15
    four = score_draft(ruleset, 2, "Ann", parse_hand("K 5"), 4)
    assert (four.points, four.penalty) == (115, 100)


# --- a hand sent just before the Save lands somewhere the phone says (issue 58) ------------------


def round_form(client, gid: int, caught: dict[str, str], went_out: str, seen: str | None) -> dict[str, str]:
    """The round form as the scorekeeper's phone sends it, with the drafts its page showed (``seen``)."""
    page = client.get(f"/games/{gid}/rounds/new").text
    hidden = dict(re.findall(r'<input[^>]*name="([^"]+)" type="hidden" value="([^"]*)"', page))
    hidden |= dict((name, value) for value, name in re.findall(r'<input[^>]*value="([^"]*)"[^>]*name="([^"]+)"', page))
    form = {name: html.unescape(value) for name, value in hidden.items() if name != "drafts_seen"}
    form |= {f"caught-{seat}": caught.get(name, "") for seat, name in enumerate(PLAYERS)}
    form["went_out"] = went_out
    if seen is not None:
        form["drafts_seen"] = seen
    return form


def test_a_hand_sent_just_before_the_save_and_not_in_it_stays_as_a_correction_request(api: Api, client):
    """Cy's phone adds a 9 and is told "sent"; the Save in flight records the 5 5 5 the scorekeeper saw.
    The 5 5 5 9 was neither in the saved round nor kept (the walk of issue 58 lost 5 of 18): it stays
    with the scorekeeper as a correction request for round 1, never for round 2."""
    gid = api.new_game()["id"]
    put(client, gid, 1, "Cy", {"cards": "5 5 5 9"})
    api.round(gid, "Ann", {"Bob": "K", "Cy": "5 5 5", "Di": ""})
    assert [(d["player"], d["cards"]) for d in api.call("GET", drafts_url(gid, 1))["drafts"]] == [("Cy", "5 5 5 9")]
    assert api.call("GET", drafts_url(gid, 2))["drafts"] == []
    page = html.unescape(client.get(f"/games/{gid}").get_data(as_text=True))
    assert "Cy's phone, for round 1: <strong>5 5 5 9</strong> (20 points)" in page


def test_a_hand_the_save_took_is_done_with_however_it_was_typed(api: Api, client):
    gid = api.new_game()["id"]
    put(client, gid, 1, "Cy", {"cards": "9 5 5  5"})
    api.round(gid, "Ann", {"Bob": "K", "Cy": "5 5 5 9", "Di": ""})
    assert api.call("GET", drafts_url(gid, 1))["drafts"] == []


def test_a_hand_the_scorekeeper_saw_and_saved_otherwise_is_done_with(api: Api, client):
    """The round form says which drafts it showed: one the scorekeeper saw and typed over is done with;
    one that came after the form last looked stays as a correction request."""
    gid = api.new_game()["id"]
    put(client, gid, 1, "Bob", {"cards": "K 7"})
    put(client, gid, 1, "Cy", {"cards": "5 5 5 9"})
    seen = json.dumps({"Bob": "K 7", "Cy": "5 5 5"})  # Cy's 9 came after the form's last look
    form = round_form(client, gid, {"Bob": "K", "Cy": "5 5 5"}, "Ann", seen)
    assert client.post(f"/games/{gid}/rounds/new", data=form).status_code == 302
    assert [(d["player"], d["cards"]) for d in api.call("GET", drafts_url(gid, 1))["drafts"]] == [("Cy", "5 5 5 9")]


def test_the_api_says_which_drafts_it_saw_too(api: Api, client):
    gid = api.new_game()["id"]
    put(client, gid, 1, "Bob", {"cards": "K 7"})
    body = {"went_out": "Ann", "caught": {"Bob": "K", "Cy": "", "Di": ""}, "drafts_seen": {"Bob": "K 7"}}
    api.call("POST", f"/api/games/{gid}/rounds", body, 201)
    assert api.call("GET", drafts_url(gid, 1))["drafts"] == []


@pytest.mark.parametrize(
    "seen",
    ["[1, 2]", '{"Bob": 7}', "{" + ", ".join(f'"p{i}": ""' for i in range(20)) + "}", '{"Bob": "' + "K" * 300 + '"}'],
)
def test_drafts_seen_that_are_not_a_short_list_of_hands_are_refused_in_words(api: Api, client, seen):
    gid = api.new_game()["id"]
    form = round_form(client, gid, {"Bob": "K"}, "Ann", seen)
    answer = client.post(f"/games/{gid}/rounds/new", data=form)
    assert answer.status_code == 400
    assert "Not saved: the drafts this form showed came garbled: reload the page" in html.unescape(answer.text)
    assert api.call("GET", f"/api/games/{gid}")["version"] == 0
