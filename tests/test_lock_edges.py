"""The lock at its edges: which tokens open it and for how long, what one device remembers, and
how long a guesser waits (the README: "A PIN on a game or a night")."""

import re

import pytest
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from support import PLAYERS, csrf_token, new_game_form

from scorekeeper.commands.locks import TOKEN_MAX_AGE


def locked_game(api, pin="4321"):
    return api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": PLAYERS, "pin": pin}, 201)["id"]


def buy_with(client, game_id, token):
    headers = {"Authorization": f"Bearer {token}"}
    return client.post(f"/api/games/{game_id}/buys", json={"player": "Bob"}, headers=headers)


def test_a_token_signed_with_the_secret_for_anything_else_opens_nothing(api, client):
    """The same secret signs the app's other things; a token is only a token if made as one."""
    game = locked_game(api)
    signer = URLSafeTimedSerializer(client.application.config["SECRET_KEY"])  # itsdangerous's own salt
    forged = signer.dumps({"lock": f"game:{game}", "generation": 0})
    assert buy_with(client, game, forged).status_code == 403
    assert api.call("GET", f"/api/games/{game}")["version"] == 0


def test_a_token_opens_for_a_day_and_not_after(api, client, monkeypatch):
    game = locked_game(api)
    token = api.call("POST", f"/api/games/{game}/unlock", {"pin": "4321"})["token"]
    now = TimestampSigner.get_timestamp
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: now(self) + TOKEN_MAX_AGE - 60)
    assert buy_with(client, game, token).status_code == 201  # the same evening, and then some
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: now(self) + TOKEN_MAX_AGE + 60)
    refused = buy_with(client, game, token)
    assert refused.status_code == 403 and "does not open this game" in refused.get_json()["error"]
    assert api.call("GET", f"/api/games/{game}")["version"] == 1


def start_locked_game_on_the_page(client, pin="abcd"):
    """The new-game form sent with a PIN: the answer (a redirect to the game)."""
    return client.post("/games/new", data=new_game_form(client.get("/games/new").text, pin))


def new_locked_game_on_the_page(client):
    return start_locked_game_on_the_page(client).headers["Location"]


def test_one_device_stays_unlocked_for_every_game_it_unlocked(client):
    first = new_locked_game_on_the_page(client)
    second = new_locked_game_on_the_page(client)
    assert first != second
    for game in (first, second):
        assert "Unlocked on this device" in client.get(game).text


def test_an_unlock_is_kept_when_the_phone_closes_the_browser(client):
    """The scorekeeper's phone may close the browser between games: the unlock is a lasting cookie
    (it has an expiry date), not one the browser drops when it closes."""
    answer = start_locked_game_on_the_page(client)
    cookie = next(value for name, value in answer.headers.items() if name == "Set-Cookie" and "session=" in value)
    assert "Expires=" in cookie


def test_lock_again_leaves_this_device_read_only_too(client):
    game = new_locked_game_on_the_page(client)
    page = client.get(game).text
    answer = client.post(f"{game}/lock", data={"csrf_token": csrf_token(page)})
    assert answer.status_code == 302
    again = client.get(game)
    assert again.status_code == 200 and "Read-only" in again.text and "Unlocked on this device" not in again.text


def test_a_guesser_is_told_how_long_to_wait_in_words_and_in_the_header(api, client):
    game = locked_game(api)
    for _ in range(5):
        api.call("POST", f"/api/games/{game}/unlock", {"pin": "0000"}, 403)
    answer = client.post(f"/api/games/{game}/unlock", json={"pin": "0000"})
    assert answer.status_code == 429
    said = re.fullmatch(r"too many wrong PINs: wait (\d+) seconds? before trying again", answer.get_json()["error"])
    assert said and int(said[1]) >= 1
    assert answer.headers["Retry-After"] == said[1]


def test_the_wait_is_said_in_whole_seconds_rounded_up():
    from scorekeeper.commands.locks import TooManyTries

    assert [TooManyTries(wait).seconds for wait in (0.2, 2.5, 7.9)] == [1, 3, 8]
    assert str(TooManyTries(2.5)) == "too many wrong PINs: wait 3 seconds before trying again"
    assert str(TooManyTries(0.2)) == "too many wrong PINs: wait 1 second before trying again"


# --- a night's lock: its own words, its own key, its own generation; the tries a PIN resets ------


def locked_night(api, pin):
    """A night locked by its first game's PIN (RULES.md: a PIN given in a night locks the night)."""
    night = api.call("POST", "/api/nights", {"name": "Fri"}, 201)["id"]
    api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": PLAYERS, "night": night, "pin": pin}, 201)
    return night


def set_money(client, night, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(f"/api/nights/{night}/money", json={"money": "paper"}, headers=headers)


def test_a_locked_night_speaks_of_itself_as_a_night(api, client):
    night = locked_night(api, "4321")
    refused = set_money(client, night)
    assert (refused.status_code, refused.get_json()["error"]) == (
        401,
        "this night is locked: unlock it with its PIN and send the token as 'Authorization: Bearer …'",
    )
    wrong = api.call("POST", f"/api/nights/{night}/unlock", {"pin": "0000"}, 403)
    assert wrong["error"] == "that is not this night's PIN"


def test_a_night_token_opens_its_own_night_and_no_other(api, client):
    first, second = locked_night(api, "4321"), locked_night(api, "8765")
    token = api.call("POST", f"/api/nights/{first}/unlock", {"pin": "4321"})["token"]
    refused = set_money(client, second, token)
    assert (refused.status_code, refused.get_json()["error"]) == (
        403,
        "that token does not open this night (or it was locked again since)",
    )
    assert set_money(client, first, token).status_code == 200


def test_locking_a_night_again_ends_its_tokens(app, api, client):
    from scorekeeper.commands import TRUSTED, run
    from scorekeeper.commands.locks import night_lock
    from scorekeeper.commands.nights import LockAgain
    from scorekeeper.store.web import get_store

    night = locked_night(api, "4321")
    token = api.call("POST", f"/api/nights/{night}/unlock", {"pin": "4321"})["token"]
    with app.test_request_context():  # "Lock again" as the scorekeeper's page does it
        store = get_store()
        lock = night_lock(store.night(night))
        assert lock is not None
        run(store, app.extensions["rulesets"], LockAgain(lock), TRUSTED)
    assert set_money(client, night, token).status_code == 403
    fresh = api.call("POST", f"/api/nights/{night}/unlock", {"pin": "4321"})["token"]
    assert set_money(client, night, fresh).status_code == 200


def test_the_right_pin_gives_the_free_tries_back(api):
    game = locked_game(api)
    for _ in range(4):
        api.call("POST", f"/api/games/{game}/unlock", {"pin": "0000"}, 403)
    api.call("POST", f"/api/games/{game}/unlock", {"pin": "4321"})
    for _ in range(5):  # five free tries again, not one
        api.call("POST", f"/api/games/{game}/unlock", {"pin": "0000"}, 403)
    api.call("POST", f"/api/games/{game}/unlock", {"pin": "0000"}, 429)


def test_past_the_free_tries_even_a_short_wait_is_said(api, monkeypatch):
    """A house could set a short delay: a wrong PIN past the free tries still says to wait, never
    just "wrong" (which would let a guesser keep going at full speed)."""
    monkeypatch.setattr("scorekeeper.commands.locks.BASE_DELAY_SECONDS", 0.5)
    game = locked_game(api)
    for _ in range(5):
        api.call("POST", f"/api/games/{game}/unlock", {"pin": "0000"}, 403)
    said = api.call("POST", f"/api/games/{game}/unlock", {"pin": "0000"}, 429)["error"]
    assert said == "too many wrong PINs: wait 1 second before trying again"


@pytest.mark.parametrize("length, status", [(3, 400), (4, 201), (64, 201), (65, 400)])
def test_a_pin_has_4_to_64_characters(api, length, status):
    answer = api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": PLAYERS, "pin": "7" * length}, status)
    if status == 400:
        assert answer["error"] == "a PIN has 4 to 64 characters"
    else:
        assert api.call("POST", f"/api/games/{answer['id']}/unlock", {"pin": "7" * length})["locked"] is True


def test_a_change_tried_on_a_locked_page_is_answered_on_the_unlock_page(app, api):
    """Another phone taps "buys" on a locked game: it lands on the unlock page, which says why."""
    game = locked_game(api)
    phone = app.test_client()
    form = {"csrf_token": csrf_token(phone.get("/games/new").text), "player": "Bob"}
    answer = phone.post(f"/games/{game}/buys", data=form, follow_redirects=True)
    assert answer.request.path == f"/games/{game}/unlock"
    assert "This game is locked: only the scorekeeper can change it. Enter the PIN to unlock it here." in answer.text


def test_a_locked_game_and_night_draw_their_padlock_with_no_emoji(app, client):
    """Issue 60: "🔒 and 🔓 on every locked game and night are drawn as an empty box on a machine without
    an emoji font". The padlock is drawn (inline SVG, hidden from screen readers: the words say it)."""
    night = client.post("/api/nights", json={}).get_json()["id"]
    form = new_game_form(client.get("/games/new").text, "abcd", night)
    game = client.post("/games/new", data=form).headers["Location"]
    stranger = app.test_client()
    for page in (client.get(game).text, stranger.get(game).text, client.get(f"/nights/{night}").text):
        assert not [char for char in page if ord(char) >= 0x1F000], "an emoji on the page"
        bar = page.split('class="lock-bar">')[1][:600]
        assert '<svg class="icon lock-icon"' in bar and 'aria-hidden="true"' in bar
