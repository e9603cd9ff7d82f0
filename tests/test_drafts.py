"""Players enter their own hands (issue 27): a draft per player for the round in play, checked as it
is typed, shown to the scorekeeper, never an entry — no points, pennies, version or history move until
the scorekeeper saves the round. Ten Pennies points (RULES.md): 3–9 count 5, 10–K 10, A and 2 20,
a joker 50; a penny a card caught."""

from __future__ import annotations

from support import Api


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
    assert answer == {"player": "Bob", "round": 1, "cards": "K 7 JKR", "points": 65, "pennies": 3}
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
    assert late["error"] == "round 1 was saved already: ask the scorekeeper to correct it if it is wrong"
    early = put(client, gid, 3, "Cy", {"cards": "5"}, status=409)
    assert early["error"] == "round 3 has not begun: this is round 2"


def test_a_draft_is_checked_as_it_is_typed(api: Api, client):
    """A player sees their own mistake at once: too many cards for their buys, more of a card than the
    decks hold, a card that is not a card, a player not at the table; every input bounded."""
    gid = api.new_game()["id"]
    too_many = put(client, gid, 1, "Bob", {"cards": " ".join(["5"] * 12)}, status=409)
    assert too_many["error"].startswith("Bob is caught with 12 cards, but with 0 buys this round a player holds")
    jokers = put(client, gid, 1, "Bob", {"cards": " ".join(["JKR"] * 9)}, status=409)
    assert jokers["error"].startswith("the hands hold 9 × JKR")
    assert "Bob's cards:" in put(client, gid, 1, "Bob", {"cards": "K 7 Z"}, status=400)["error"]
    assert "Zed" in put(client, gid, 1, "Zed", {"cards": "K"}, status=400)["error"]
    huge = put(client, gid, 1, "Bob", {"cards": "K " * 150}, status=409)
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
    gid = api.call("POST", "/api/games", {"ruleset": "pennies-from-heaven", "players": ["Ann", "Bob"],
                                          "first_dealer": "Ann"}, 201)["id"]  # fmt: skip
    assert put(client, gid, 1, "Bob", {"points": 35})["points"] == 35
    assert "points left" in put(client, gid, 1, "Bob", {"cards": "K"}, status=409)["error"]
    assert api.call("GET", drafts_url(gid, 1))["drafts"][0]["points"] == 35
