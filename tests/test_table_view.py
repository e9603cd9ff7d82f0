"""The table view's standings (rank, gap to the leader) and its pages: read-only, live, escaped."""

from __future__ import annotations

import html
import http.client
import json

import pytest
from support import PLAYERS, Api, found, free_port, start_server

from scorekeeper.rules.ledger import standings


@pytest.mark.parametrize(
    "totals, lowest_wins, expected",
    [
        # (name, rank, behind) from first to last
        ({"Ann": 30, "Bob": 10, "Cy": 20}, True, [("Bob", 1, 0), ("Cy", 2, 10), ("Ann", 3, 20)]),
        ({"Ann": 30, "Bob": 10, "Cy": 20}, False, [("Ann", 1, 0), ("Cy", 2, 10), ("Bob", 3, 20)]),
        # equal totals share a rank, keep seat order, and the next rank is skipped
        ({"Ann": 5, "Bob": 5, "Cy": 0, "Di": 5}, True, [("Cy", 1, 0), ("Ann", 2, 5), ("Bob", 2, 5), ("Di", 2, 5)]),
        ({"Ann": 5, "Bob": 5, "Cy": 9}, True, [("Ann", 1, 0), ("Bob", 1, 0), ("Cy", 3, 4)]),
        # sides below zero (Pennies From Heaven, highest wins)
        ({"A & C": -350, "B & D": 120}, False, [("B & D", 1, 0), ("A & C", 2, 470)]),
        ({"Ann": 0, "Bob": 0}, True, [("Ann", 1, 0), ("Bob", 1, 0)]),
    ],
)
def test_standings_rank_and_gap_to_the_leader(totals, lowest_wins, expected):
    got = [(s.name, s.rank, s.behind) for s in standings(totals, lowest_wins)]
    assert got == expected
    assert [s.total for s in standings(totals, lowest_wins)] == [totals[name] for name, _, _ in expected]


def test_table_view_shows_standings_and_the_round_card(api: Api, client):
    gid = api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": PLAYERS, "first_dealer": "Bob"}, 201)[
        "id"
    ]
    api.round(gid, "Ann", {"Bob": "K K", "Cy": "5", "Di": ""})  # Bob 20, Cy 5, Di 0, Ann 0
    page = client.get(f"/games/{gid}/table").text
    names = [html.unescape(n) for n in _between_all(page, 'class="tv-name" title="', '"')]
    assert names == ["Ann", "Di", "Cy", "Bob"]
    gaps = [g.split("<")[0].strip() for g in _between_all(page, 'class="tv-gap">', "\n")]
    assert gaps == ["leads", "leads", "5 behind", "20 behind"]
    assert "Round 2 of 7" in page
    assert "<dt>Dealer</dt><dd>Cy</dd>" in page  # Bob dealt round 1; the deal moves one seat on
    assert "<form" not in page.split("<main>")[1]  # nothing to change from here
    fragment = client.get(f"/games/{gid}/table/fragment").text
    assert "tv-standings" in fragment and "<html" not in fragment
    before = client.get(f"/games/{gid}/table/state").get_json()["version"]
    api.round(gid, "Bob", {"Ann": "", "Cy": "", "Di": ""})
    assert client.get(f"/games/{gid}/table/state").get_json()["version"] > before
    assert "Round 3 of 7" in client.get(f"/games/{gid}/table").text
    # The on-screen scorepad marks each round's dealer: Bob dealt round 1, Cy round 2.
    game_page = client.get(f"/games/{gid}").text
    assert game_page.count('class="dealer-mark" title="dealt: ') == 2
    assert 'title="dealt: Bob"' in game_page and 'title="dealt: Cy"' in game_page


def test_table_view_of_a_game_by_sides_ranks_highest_first(api: Api, client):
    teams = [["Ann", "Cy"], ["Bob", "Di"]]
    body = {"ruleset": "pennies-from-heaven", "players": PLAYERS, "teams": teams, "first_dealer": "Ann"}
    gid = api.call("POST", "/api/games", body, 201)["id"]
    page = client.get(f"/games/{gid}/table").text
    assert "highest wins" in page and "On the board with 50" in page and "Plays first" in page
    assert "Bowl" not in page  # no pennies in Pennies From Heaven


def test_table_view_of_no_game_is_404(client):
    assert client.get("/games/999/table").status_code == 404
    assert client.get("/games/999/table/state").status_code == 404
    assert client.get("/games/999/table/fragment").status_code == 404


def test_names_are_escaped_on_the_table_view(api: Api, client):
    players = ["<b>Ann</b>", "Bob", "O'Neil"]
    gid = api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": players}, 201)["id"]
    page = client.get(f"/games/{gid}/table").text
    assert "<b>Ann</b>" not in page and "&lt;b&gt;Ann&lt;/b&gt;" in page


def _between_all(text: str, start: str, end: str) -> list[str]:
    parts = text.split(start)[1:]
    return [part.split(end, 1)[0] for part in parts]


@pytest.mark.parametrize(
    "names, expected",
    [(["Ann"], "Ann"), (["Ann", "Bob"], "Ann and Bob"), (["Ann", "O'Brien", "Zoë"], "Ann, O'Brien and Zoë")],
)
def test_winners_are_listed_as_a_sentence_says_them(names, expected):
    from scorekeeper.rules.wording import listed

    assert listed(names) == expected


def test_a_poll_of_an_unchanged_game_is_answered_304_with_no_body(api: Api, client):
    """Issue 27: eight phones polling every 2 s cost next to nothing while nothing changes; the first
    poll after a change gets the new version (and the phone then fetches the new standings)."""
    gid = api.new_game()["id"]
    first = client.get(f"/games/{gid}/table/state")
    assert first.status_code == 200 and first.headers["ETag"]
    again = client.get(f"/games/{gid}/table/state", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    api.round(gid, "Ann", {"Bob": "K", "Cy": "", "Di": ""})
    moved = client.get(f"/games/{gid}/table/state", headers={"If-None-Match": first.headers["ETag"]})
    assert moved.status_code == 200
    assert moved.get_json()["version"] > first.get_json()["version"]
    assert moved.headers["ETag"] != first.headers["ETag"]
    # The live view behind its share link answers the same way.
    token = found(r"/live/([\w-]+)", client.get(f"/games/{gid}").text)
    live = client.get(f"/live/{token}/state")
    assert client.get(f"/live/{token}/state", headers={"If-None-Match": live.headers["ETag"]}).status_code == 304


@pytest.mark.process
def test_a_served_304_keeps_the_phones_connection_open(tmp_path):
    """Issue 27: a phone polls on one kept-alive connection. waitress on its own closes the connection
    after every 304 (it has no Content-Length), so every unchanged poll paid for a new TCP connection."""
    port = free_port()
    server = start_server(tmp_path, port)
    try:
        phone = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        game = json.dumps({"ruleset": "ten-pennies", "players": PLAYERS})
        phone.request("POST", "/api/games", body=game, headers={"Content-Type": "application/json"})
        gid = json.loads(phone.getresponse().read())["id"]
        phone.request("GET", f"/games/{gid}/table/state")
        first = phone.getresponse()
        first.read()
        etag = first.getheader("ETag")
        assert etag is not None
        connection = phone.sock
        for _ in range(3):
            phone.request("GET", f"/games/{gid}/table/state", headers={"If-None-Match": etag})
            answer = phone.getresponse()
            assert (answer.status, answer.read(), answer.getheader("Connection")) == (304, b"", None)
            assert phone.sock is connection, "the server closed the connection after a 304"
        # A client that asks for the connection to close still has it closed.
        phone.request("GET", f"/games/{gid}/table/state", headers={"If-None-Match": etag, "Connection": "close"})
        answer = phone.getresponse()
        answer.read()
        assert answer.status == 304 and answer.getheader("Connection") == "close"
    finally:
        server.terminate()
        server.wait(timeout=10)
