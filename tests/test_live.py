"""The live and table fragments every phone fetches when a game moves (issue 46): drawn once per game
version and served to every phone from that, never stale."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, template_rendered
from support import PLAYERS, Api, found


@contextmanager
def drawings(app: Flask) -> Iterator[list[str]]:
    """The names of the templates the app renders meanwhile."""
    drawn: list[str] = []

    def record(sender: Flask, template: object, context: object, **extra: object) -> None:
        drawn.append(getattr(template, "name", ""))

    template_rendered.connect(record, app)
    try:
        yield drawn
    finally:
        template_rendered.disconnect(record, app)


def test_nine_phones_asking_for_the_same_version_get_one_drawing(app: Flask, api: Api, client):
    gid = api.new_game()["id"]
    api.round(gid, "Ann", {"Bob": "K K", "Cy": "5", "Di": ""})
    token = found(r"/live/([\w-]+)", client.get(f"/games/{gid}").text)
    paths = {
        "_live_fragment_page.html": f"/live/{token}/fragment",
        "_table_fragment.html": f"/games/{gid}/table/fragment",
    }
    for template, path in paths.items():
        with drawings(app) as drawn:
            answers = {client.get(path).text for _ in range(9)}
        assert drawn.count(template) == 1 and len(answers) == 1
        assert "Bob" in answers.pop()


def test_a_change_is_drawn_anew_for_the_next_phone(app: Flask, api: Api, client):
    """A round, a buy and a note each move the version: the next phone sees them."""
    gid = api.new_game(PLAYERS)["id"]
    token = found(r"/live/([\w-]+)", client.get(f"/games/{gid}").text)
    before = client.get(f"/live/{token}/fragment").text
    api.round(gid, "Ann", {"Bob": "K K", "Cy": "5", "Di": ""})
    after_round = client.get(f"/live/{token}/fragment").text
    assert after_round != before and ">20<" in after_round.replace(" ", "")
    api.call("PUT", f"/api/games/{gid}/notes", {"notes": "Cy's kitchen"})
    assert "Cy&#39;s kitchen" in client.get(f"/live/{token}/fragment").text
    assert "Cy&#39;s kitchen" in client.get(f"/games/{gid}/table/fragment").text


def test_a_fragment_of_no_game_is_not_found(client):
    assert client.get("/games/999/table/fragment").status_code == 404
    assert client.get("/live/no-such-link/fragment").status_code == 404


def test_a_pennies_from_heaven_phone_says_your_cards_for_the_hand(api: Api, client):
    """Issue 60: "a Pennies From Heaven phone says 'Your hand for hand 1'"; and "when the round ends"."""
    from support import words

    body = {"ruleset": "pennies-from-heaven", "players": ["Ann", "Bob"], "first_dealer": "Ann"}
    game = api.call("POST", "/api/games", body, 201)
    token = client.get(f"/games/{game['id']}").text.split("/live/")[1].split('"')[0]
    said = words(client.get(f"/live/{token}").text)
    assert "Your cards  — open it when the hand ends" in said and "round ends" not in said
    tens = api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": ["Ann", "Bob"]}, 201)
    token = client.get(f"/games/{tens['id']}").text.split("/live/")[1].split('"')[0]
    assert "Your hand  — open it when the round ends" in words(client.get(f"/live/{token}").text)


def test_a_pad_with_one_line_has_no_next_key(api: Api, client):
    """Issue 60: "a 'Next ▸' key on a pad with one line". A phone's own hand and its "can I go down?"
    are one line each: no Next; the round form, a line a player, keeps it."""
    gid = api.new_game()["id"]
    token = found(r"/live/([\w-]+)", client.get(f"/games/{gid}").text)
    live = client.get(f"/live/{token}").text
    assert live.count('class="tap-pad"') == 2 and 'data-action="next"' not in live
    assert client.get(f"/games/{gid}/rounds/new").text.count('data-action="next"') == 1
