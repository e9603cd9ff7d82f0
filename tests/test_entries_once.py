"""Each entry once: an API client's retry, a form sent twice, Back then Save (issue: exactly what the
table meant). Nothing is invented and nothing is recorded twice."""

import html
import re
import threading

from support import PLAYERS, csrf_token, found, words

ROUND = {"went_out": "Ann", "caught": {"Bob": "K 7", "Cy": "", "Di": "5"}}


def post_round(client, game_id, body, key=None):
    headers = {"Idempotency-Key": key} if key else {}
    return client.post(f"/api/games/{game_id}/rounds", json=body, headers=headers)


def rounds_recorded(api, game_id):
    return len(api.call("GET", f"/api/games/{game_id}")["rounds"])


def test_a_retried_round_with_the_same_key_is_recorded_once(api, client):
    gid = api.new_game()["id"]
    first = post_round(client, gid, ROUND, key="phone-7f3a-round-1")
    again = post_round(client, gid, ROUND, key="phone-7f3a-round-1")
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json() and again.headers["Idempotent-Replayed"] == "true"
    assert rounds_recorded(api, gid) == 1


def test_a_key_reused_for_another_request_is_422_and_records_nothing(api, client):
    gid = api.new_game()["id"]
    post_round(client, gid, ROUND, key="k1")
    other = post_round(client, gid, {**ROUND, "went_out": "Bob", "caught": {"Ann": "", "Cy": "", "Di": ""}}, key="k1")
    assert other.status_code == 422 and "another request" in other.get_json()["error"]
    assert rounds_recorded(api, gid) == 1


def test_every_api_write_takes_a_key(api, client):
    key = {"Idempotency-Key": "night-1"}
    night = [client.post("/api/nights", json={"name": "Fri"}, headers=key).get_json()["id"] for _ in range(2)]
    assert night[0] == night[1] and client.get("/api/nights/2").status_code == 404
    key = {"Idempotency-Key": "game-1"}
    body = {"ruleset": "ten-pennies", "players": PLAYERS}
    games = [client.post("/api/games", json=body, headers=key).get_json()["id"] for _ in range(2)]
    assert games[0] == games[1] and client.get("/api/games/2").status_code == 404
    key = {"Idempotency-Key": "buy-1"}
    for _ in range(2):
        assert client.post("/api/games/1/buys", json={"player": "Bob"}, headers=key).status_code == 201
    assert api.call("GET", "/api/games/1")["players"][1]["buys_left"] == 9


def test_a_round_posted_for_a_round_already_recorded_is_409_naming_it(api, client):
    gid = api.new_game()["id"]
    assert post_round(client, gid, {**ROUND, "round": 1}).status_code == 201
    retry = post_round(client, gid, {**ROUND, "round": 1})
    assert retry.status_code == 409
    assert retry.get_json()["error"] == f"round 1 is already recorded: correct it with PUT /api/games/{gid}/rounds/1"
    assert retry.get_json()["version"] == api.call("GET", f"/api/games/{gid}")["version"]  # what a PUT is made against
    assert post_round(client, gid, {**ROUND, "round": 3}).status_code == 400
    assert rounds_recorded(api, gid) == 1


def test_four_simultaneous_posts_with_one_key_record_one_round(app, api):
    gid = api.new_game()["id"]
    answers, start = [], threading.Barrier(4)

    def send():
        client = app.test_client()
        start.wait()
        response = post_round(client, gid, ROUND, key="same-key")
        answers.append((response.status_code, response.get_json()["version"]))

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [(201, 1)] * 4
    assert rounds_recorded(api, gid) == 1


def test_without_a_key_the_api_records_what_it_is_sent(api, client):
    gid = api.new_game()["id"]
    assert post_round(client, gid, ROUND).status_code == post_round(client, gid, ROUND).status_code == 201
    assert rounds_recorded(api, gid) == 2  # two rounds sent, two recorded: a client that retries sends a key


# --- through the pages, as a browser sends them -----------------------------------------------------


def hidden_fields(html):
    return dict(re.findall(r'<input name="(\w+)" type="hidden" value="([^"]*)"', html))


def drawn_round_form(client, url, went_out, caught):
    """The round form as the page drew it (csrf, version, entry key, round) with what was typed."""
    data = hidden_fields(client.get(url).text)
    data["went_out"] = went_out
    data.update({f"caught-{seat}": caught.get(name, "") for seat, name in enumerate(PLAYERS)})
    return data


def test_save_sent_twice_records_one_round(api, client):
    gid = api.new_game()["id"]
    url = f"/games/{gid}/rounds/new"
    form = drawn_round_form(client, url, "Ann", {"Bob": "K", "Cy": "", "Di": "5"})
    assert client.post(url, data=form).status_code == 302
    second = client.post(url, data=form, follow_redirects=True)
    assert "Round 1 was already saved (Save was tapped twice): nothing more was recorded." in second.text
    assert rounds_recorded(api, gid) == 1


def test_back_then_save_records_nothing_and_offers_the_correction(api, client):
    gid = api.new_game()["id"]
    url = f"/games/{gid}/rounds/new"
    form = drawn_round_form(client, url, "Ann", {"Bob": "K", "Cy": "", "Di": "5"})
    assert client.post(url, data=form).status_code == 302
    # Back: the browser shows the form drawn for round 1 again; the scorekeeper changes it and saves.
    replayed = {**form, "entry_key": "restored-by-back", "went_out": "Bob", "caught-0": "Q"}
    response = client.post(url, data=replayed)
    assert response.status_code == 409
    page = words(response.text)
    told = "Round 1 was saved on another phone (or by an earlier Save) while you entered it: nothing was recorded."
    assert told in page
    assert rounds_recorded(api, gid) == 1
    # Redrawn as the correction of round 1 (never as "Enter round 2" holding these hands): what was
    # typed is kept, beside what was saved, and one tap corrects round 1 with it.
    assert "Correct round 1" in page and "Enter round 2" not in page
    assert f'action="/games/{gid}/rounds/1/edit"' in response.text
    assert 'value="Q"' in response.text and "saved: K" in page
    again = {**hidden_fields(response.text), "went_out": "Bob", "caught-0": "Q", "caught-2": "", "caught-3": "5"}
    assert again["round_number"] == "1"
    assert client.post(f"/games/{gid}/rounds/1/edit", data=again).status_code == 302
    state = api.call("GET", f"/api/games/{gid}")
    assert len(state["rounds"]) == 1 and state["rounds"][0]["went_out"] == "Bob"
    assert state["rounds"][0]["results"]["Ann"]["cards"] == ["Q"]


def test_a_round_refused_because_another_phone_bought_is_kept_and_saves_with_one_more_tap(api, client):
    gid = api.new_game()["id"]
    url = f"/games/{gid}/rounds/new"
    form = drawn_round_form(client, url, "Ann", {"Bob": "K", "Cy": "", "Di": "5"})
    api.buy(gid, "Cy")  # another phone, while this one enters round 1
    refused = client.post(url, data=form)
    assert refused.status_code == 409 and rounds_recorded(api, gid) == 0
    page = words(refused.text)
    assert "Not saved yet: the game changed on another phone while you entered this round" in page
    assert "Cy" in page.split("Not saved yet")[1].split(")")[0]  # says whose buy it was
    assert 'class="flash flash-error standing" role="alert"' in refused.text  # stays until the person acts
    again = hidden_fields(refused.text)
    assert again["version"] != form["version"]  # redrawn for the game as it is now
    typed = {**again, "went_out": "Ann", "caught-1": "K", "caught-2": "", "caught-3": "5"}
    assert 'value="K"' in refused.text and 'value="5"' in refused.text  # what was typed is kept
    assert client.post(url, data=typed).status_code == 302
    assert rounds_recorded(api, gid) == 1


def test_a_round_where_nobody_is_caught_asks_for_a_second_tap(api, client):
    gid = api.new_game()["id"]
    url = f"/games/{gid}/rounds/new"
    form = drawn_round_form(client, url, "Ann", {})
    first = client.post(url, data=form)
    assert first.status_code == 200 and rounds_recorded(api, gid) == 0
    assert "Nobody but Ann was caught with cards? Tap Save again to record it like that." in first.text
    assert "Yes, save round 1" in first.text
    again = hidden_fields(first.text)
    assert again["confirmed"] == "1"
    form.update(again)
    assert client.post(url, data=form).status_code == 302
    assert rounds_recorded(api, gid) == 1


def test_a_buy_tapped_twice_on_one_page_is_one_buy_and_can_be_undone_from_the_message(api, client):
    gid = api.new_game()["id"]
    page = client.get(f"/games/{gid}").text
    token, version = csrf_token(page), hidden_fields(page)["version"]
    key = found(r'name="entry_key" value="([^"]+-buy-2)"', page)  # Bob's button
    buy = {"csrf_token": token, "version": version, "player": "Bob", "entry_key": key}
    assert client.post(f"/games/{gid}/buys", data=buy).status_code == 302
    after = client.get(f"/games/{gid}").text
    said = re.sub(r"<[^>]+>", "", after)  # as read, tags aside
    assert "Bob bought the discard — 9 buys left" in said and "↶ Undo Bob’s buy" in said
    again = client.post(f"/games/{gid}/buys", data=buy, follow_redirects=True).text
    assert "That buy was already saved" in again
    assert api.call("GET", f"/api/games/{gid}")["players"][1]["buys_left"] == 9
    # The Undo button of the message, as drawn on the page after the buy.
    undo = re.search(r'action="(/games/\d+/undo/(\d+))"', after)
    assert undo, "no Undo on the page after the buy"
    fields = dict(re.findall(r'name="(\w+)" (?:type="hidden" )?value="([^"]*)"', after.split(undo.group(0))[1][:600]))
    response = client.post(undo.group(1), data={**hidden_fields(after), **fields, "back": "game"})
    assert response.headers["Location"] == f"/games/{gid}"
    assert api.call("GET", f"/api/games/{gid}")["players"][1]["buys_left"] == 10


def test_an_undone_round_is_put_back_from_history(api, client):
    gid = api.new_game()["id"]
    api.round(gid, "Ann", {"Bob": "K", "Cy": "", "Di": "5"})
    confirm = client.get(f"/games/{gid}/undo/1?back=history").text
    assert "<h1>Undo round 1?</h1>" in confirm  # table words, never an entry number
    undone = client.post(f"/games/{gid}/undo/1", data=hidden_fields(confirm) | {"back": "history"})
    assert rounds_recorded(api, gid) == 0
    assert "Undid round 1; History can put it back" in client.get(undone.location).text
    history = client.get(f"/games/{gid}/history").text
    assert "Undid round 1 (Round 1: Ann went out." in history and ">Put back</button>" in history
    put_back = client.post(
        found(r'<form method="post" action="(/games/\d+/undo/2)"', history),
        data={"csrf_token": csrf_token(history), "version": "2"},
    )
    assert "Put back round 1; everything after it is recomputed" in client.get(put_back.location).text
    state = api.call("GET", f"/api/games/{gid}")
    assert len(state["rounds"]) == 1 and state["players"][1]["points"] == 10
    assert "Put back round 1 (after its undo)" in client.get(f"/games/{gid}/history").text


def buy_button(page, name):
    return found(rf'<button [^>]*data-player="{name}"[^>]*>', page, group=0)


def test_ten_card_rummy_buy_buttons_say_when_they_cost(api, client):
    gid = api.new_game(ruleset="ten-card-rummy")["id"]
    page = client.get(f"/games/{gid}").text
    assert all("disabled" in buy_button(page, name) for name in PLAYERS)  # buying starts in round 4
    assert page.count("from round 4") == 4 and "· ·" not in page and "now" not in page
    for _ in range(3):
        api.round(gid, "Ann", {"Bob": "", "Cy": "", "Di": "3"})
    for _ in range(3):
        api.buy(gid, "Bob")
    page = client.get(f"/games/{gid}").text
    assert "disabled" not in buy_button(page, "Bob") and "penalty" in buy_button(page, "Bob")
    assert "3 this round · next: +100 points" in page  # the 4th buy costs 100 points: said before it is tapped
    assert "disabled" not in buy_button(page, "Cy") and "penalty" not in buy_button(page, "Cy")


def test_the_game_after_an_entry_knows_the_entry_by_its_stored_number(app, api):
    """Events are numbered across all games; the game a command returns uses the same numbers as
    the game loaded afterwards (an Undo offered for "the entry just made" must find it)."""
    from scorekeeper.commands import TRUSTED, run
    from scorekeeper.commands.games import RecordBuy
    from scorekeeper.reads.loading import load_game
    from scorekeeper.rules.game import Game
    from scorekeeper.store import get_store
    from scorekeeper.web import current_catalog

    first = api.new_game()["id"]
    api.buy(first, "Ann")
    second = api.new_game()["id"]
    with app.app_context():
        store, catalog = get_store(), current_catalog()
        after = run(store, catalog, RecordBuy(game_id=second, player="Bob"), TRUSTED)
        reloaded = load_game(store, catalog, second).game
    assert isinstance(after, Game)
    assert [e.id for e in after.events] == [e.id for e in reloaded.events] == [2]


# --- rematch (#18) ---------------------------------------------------------------------------------


def finish(api, game_id, players=PLAYERS):
    for _ in range(7):
        api.round(game_id, players[0], {name: "" for name in players[1:]})


def test_a_rematch_seats_the_same_players_with_the_deal_one_seat_on(api):
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    body = {"ruleset": "ten-pennies", "players": PLAYERS, "first_dealer": "Cy", "penny_cents": 5, "night": night}
    game = api.call("POST", "/api/games", body, 201)
    assert "finished" in api.call("POST", f"/api/games/{game['id']}/rematch", {}, 400)["error"]
    finish(api, game["id"])
    again = api.call("POST", f"/api/games/{game['id']}/rematch", {}, 201)
    assert [p["name"] for p in again["players"]] == PLAYERS and again["ruleset"] == "ten-pennies"
    assert again["penny_cents"] == 5 and again["round"] == 1
    assert again["rounds"] == [] and api.call("GET", f"/api/nights/{night}")["games"][-1]["id"] == again["id"]
    # Game 1: Cy dealt round 1 (so round 1's dealer of the rematch is Di, the next seat to the left).
    assert first_dealer_of(api, game["id"]) == "Cy" and first_dealer_of(api, again["id"]) == "Di"


def test_a_rematch_starts_with_an_empty_bowl(api):
    """A rematch is a new game: nothing is carried into its bowl (a night's carry is the night's to
    work out, from a tie's leftover)."""
    game = api.new_game()
    finish(api, game["id"])
    again = api.call("POST", f"/api/games/{game['id']}/rematch", {}, 201)
    assert again["bowl"] == 0


def first_dealer_of(api, game_id):
    """Round 1's dealer, as the recorded round shows it (a round is recorded first if none is)."""
    if not api.call("GET", f"/api/games/{game_id}")["rounds"]:
        api.round(game_id, "Ann", {"Bob": "", "Cy": "", "Di": ""})
    return api.call("GET", f"/api/games/{game_id}")["rounds"][0]["dealer"]


def test_a_rematch_of_a_locked_game_needs_its_pin_and_keeps_it(api, client):
    game = api.new_game(pin="4321")["id"]
    token = {"Authorization": f"Bearer {api.call('POST', f'/api/games/{game}/unlock', {'pin': '4321'})['token']}"}
    for _ in range(7):
        client.post(
            f"/api/games/{game}/rounds",
            json={"went_out": "Ann", "caught": {"Bob": "", "Cy": "", "Di": ""}},
            headers=token,
        )
    assert client.post(f"/api/games/{game}/rematch", json={}).status_code == 401
    again = client.post(f"/api/games/{game}/rematch", json={}, headers=token)
    assert again.status_code == 201
    new = again.get_json()["id"]
    assert client.post(f"/api/games/{new}/buys", json={"player": "Bob"}).status_code == 401  # locked as well
    assert api.call("POST", f"/api/games/{new}/unlock", {"pin": "4321"})["locked"] is True


def test_the_scorekeeper_s_phone_stays_unlocked_for_the_rematch_of_a_game_with_its_own_pin(api, client):
    """The phone that could change the finished game taps Rematch on its page and is straight away the
    scorekeeper of the new one, with no PIN asked again (a planted fault of issue 59 let it forget)."""
    game = api.new_game(pin="4321")["id"]
    unlock = client.get(f"/games/{game}/unlock").text
    client.post(f"/games/{game}/unlock", data={"csrf_token": csrf_token(unlock), "pin": "4321"})
    for _ in range(7):
        page = client.get(f"/games/{game}/rounds/new").text
        fields = {**hidden_fields(page), "csrf_token": csrf_token(page), "went_out": "Ann", "confirmed": "1"}
        assert client.post(f"/games/{game}/rounds/new", data=fields).status_code == 302
    rematch = client.post(f"/games/{game}/rematch", data={"csrf_token": csrf_token(client.get(f"/games/{game}").text)})
    new = int(rematch.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/games/{new}").text
    assert "Unlocked on this device" in page and "buys the discard" in page
    stranger = client.application.test_client()
    assert "Read-only" in stranger.get(f"/games/{new}").text  # the lock itself stays


def test_a_correction_made_on_another_phone_is_named_as_a_correction(api, client):
    """Issue 26: the refused form says what changed in table words; a correction of round 1 made on
    another phone while this one entered round 2 is "Round 1 corrected", not a bare round line."""
    gid = api.new_game()["id"]
    api.round(gid, "Ann", {"Bob": "K", "Cy": "", "Di": "5"})
    url = f"/games/{gid}/rounds/new"
    form = drawn_round_form(client, url, "Bob", {"Ann": "Q", "Cy": "3", "Di": ""})
    api.call("PUT", f"/api/games/{gid}/rounds/1", {"went_out": "Ann", "caught": {"Bob": "K", "Cy": "", "Di": "5 5"}})
    refused = client.post(url, data=form)
    assert refused.status_code == 409 and rounds_recorded(api, gid) == 1
    change = words(refused.text).split("while you entered this round (")[1]
    assert change.startswith("Round 1 corrected: Ann went out.")
    # Round 1 undone and entered again on the other phone is saved anew, not a correction.
    form = drawn_round_form(client, url, "Bob", {"Ann": "Q", "Cy": "3", "Di": ""})
    last = api.call("GET", f"/api/games/{gid}/history")[-1]["id"]
    api.call("POST", f"/api/games/{gid}/undo", {"event": last}, 201)
    api.round(gid, "Cy", {"Ann": "7", "Bob": "", "Di": ""})
    refused = client.post(f"/games/{gid}/rounds/new", data=form)
    assert refused.status_code == 409
    assert words(refused.text).split("while you entered this round (")[1].startswith("Round 1 saved: Cy went out.")
    # The history says the same: the correction is one, the round entered anew after its undo is not.
    texts = [entry["text"] for entry in api.call("GET", f"/api/games/{gid}/history")]
    assert texts[1].startswith("Correction — Round 1: Ann went out") and texts[-1].startswith("Round 1: Cy went out")


def test_game_a_s_buy_key_sent_with_game_b_s_form_is_refused_and_records_nothing(api, client):
    """Issue 58: "game A's buy key sent with game B's form is answered 'already saved' and nothing is
    recorded". The key is refused in words on the page, and B's buy is not lost in silence."""
    game_a, game_b = api.new_game()["id"], api.new_game()["id"]
    page_a, page_b = client.get(f"/games/{game_a}").text, client.get(f"/games/{game_b}").text
    key_a = found(r'name="entry_key" value="([^"]+-buy-2)"', page_a)
    buy_a = {"csrf_token": csrf_token(page_a), "version": hidden_fields(page_a)["version"], "player": "Bob"}
    assert client.post(f"/games/{game_a}/buys", data={**buy_a, "entry_key": key_a}).status_code == 302
    buy_b = {"csrf_token": csrf_token(page_b), "version": hidden_fields(page_b)["version"], "player": "Bob"}
    refused = client.post(f"/games/{game_b}/buys", data={**buy_b, "entry_key": key_a})
    assert refused.status_code == 409
    assert "This form's key belongs to another form (another game or another kind of entry)" in html.unescape(
        words(refused.text)
    )
    assert api.call("GET", f"/api/games/{game_b}")["players"][1]["buys_left"] == 10
    assert api.call("GET", f"/api/games/{game_a}")["players"][1]["buys_left"] == 9
