"""The scorekeeper's lock, the live view, hostile input, and a server killed mid-write."""

import http.client
import json
import re
import signal
import socket
import sqlite3
import time
import urllib.error
import urllib.request

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import PLAYERS, csrf_token, examples, found, free_port, new_game_form, start_server

from scorekeeper.host import serving


def locked_game(api, pin="4321"):
    return api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": PLAYERS, "pin": pin}, 201)["id"]


def test_api_writes_to_a_locked_game_need_its_token(api, client):
    gid = locked_game(api)
    assert "locked" in api.call("POST", f"/api/games/{gid}/buys", {"player": "Bob"}, 401)["error"]
    wrong = client.post(f"/api/games/{gid}/buys", json={"player": "Bob"}, headers={"Authorization": "Bearer x.y.z"})
    assert wrong.status_code == 403
    assert api.call("POST", f"/api/games/{gid}/unlock", {"pin": "0000"}, 403)["error"] == "that is not this game's PIN"
    token = api.call("POST", f"/api/games/{gid}/unlock", {"pin": "4321"})["token"]
    other = locked_game(api)
    other_token = api.call("POST", f"/api/games/{other}/unlock", {"pin": "4321"})["token"]
    assert (
        client.post(
            f"/api/games/{gid}/buys", json={"player": "Bob"}, headers={"Authorization": f"Bearer {other_token}"}
        ).status_code
        == 403
    )
    ok = client.post(f"/api/games/{gid}/buys", json={"player": "Bob"}, headers={"Authorization": f"Bearer {token}"})
    assert ok.status_code == 201 and ok.get_json()["version"] == 1
    for path, body in [
        (f"/api/games/{gid}/rounds", {"went_out": "Ann", "caught": {"Bob": "", "Cy": "", "Di": ""}}),
        (f"/api/games/{gid}/undo", {"event": 1}),
    ]:
        assert client.post(path, json=body).status_code == 401
    assert api.call("GET", f"/api/games/{gid}")["version"] == 1  # reads need no token


def test_pin_guessing_is_slowed(api):
    gid = locked_game(api)
    for _ in range(5):
        api.call("POST", f"/api/games/{gid}/unlock", {"pin": "0000"}, 403)
    assert "too many wrong PINs" in api.call("POST", f"/api/games/{gid}/unlock", {"pin": "0000"}, 429)["error"]
    # Even the right PIN waits out the block.
    assert "wait" in api.call("POST", f"/api/games/{gid}/unlock", {"pin": "4321"}, 429)["error"]


def test_pin_is_stored_hashed(api, app):
    gid = locked_game(api, pin="tablepin")
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        stored = conn.execute("SELECT pin_hash FROM games WHERE id = ?", [gid]).fetchone()[0]
    assert "tablepin" not in stored and stored.split(":")[0] in {"scrypt", "pbkdf2"}
    assert (
        "a PIN has 4 to 64 characters"
        in api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": PLAYERS, "pin": "12"}, 400)["error"]
    )


def test_pages_of_a_locked_game_are_read_only_until_unlocked(api, client):
    gid = locked_game(api)
    page = client.get(f"/games/{gid}").text
    assert "Read-only" in page and "buys the discard" not in page and "Enter round 1" not in page
    token = csrf_token(client.get("/games/new").text)  # a valid form token: the lock, not CSRF, must refuse
    response = client.post(f"/games/{gid}/buys", data={"csrf_token": token, "player": "Bob", "version": "0"})
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/games/{gid}/unlock")
    assert client.get(f"/games/{gid}/rounds/new").headers["Location"].endswith("/unlock")
    assert api.call("GET", f"/api/games/{gid}")["version"] == 0
    unlock_page = client.get(f"/games/{gid}/unlock").text
    wrong = client.post(f"/games/{gid}/unlock", data={"csrf_token": csrf_token(unlock_page), "pin": "9999"})
    assert wrong.status_code == 400 and "not this game&#39;s PIN" in wrong.text
    right = client.post(f"/games/{gid}/unlock", data={"csrf_token": csrf_token(unlock_page), "pin": "4321"})
    assert right.status_code == 302
    page = client.get(f"/games/{gid}").text
    assert "Unlocked on this device" in page and "buys the discard" in page
    client.post(f"/games/{gid}/buys", data={"csrf_token": csrf_token(page), "player": "Bob", "version": "0"})
    assert api.call("GET", f"/api/games/{gid}")["version"] == 1


def test_whoever_sets_the_pin_keeps_the_game_unlocked(client):
    data = new_game_form(client.get("/games/new").text, "abcd")
    location = client.post("/games/new", data=data).headers["Location"]
    assert "Unlocked on this device" in client.get(location).text
    other = client.application.test_client()
    assert "Read-only" in other.get(location).text


def test_live_view_follows_changes(api, client):
    gid = api.new_game()["id"]
    page = client.get(f"/games/{gid}").text
    link = found(r'class="share-link"><a href="http://localhost([^"]+)"', page)
    assert re.fullmatch(r"/live/[A-Za-z0-9_-]{20,}", link)
    live = client.get(link).text
    assert "Round 1" in live and "2 sets of 3" in live and "buys the discard" not in live and "<form" not in live
    assert client.get(link + "/state").get_json() == {"version": 0}
    api.round(gid, "Ann", {"Bob": "K K", "Cy": "", "Di": ""})
    assert client.get(link + "/state").get_json() == {"version": 1}
    fragment = client.get(link + "/fragment").text
    assert "Round 2" in fragment and ">20</td>" in fragment
    assert client.get("/live/not-a-real-token").status_code == 404
    assert client.get("/live/not-a-real-token/state").status_code == 404


def test_request_size_is_limited(client):
    response = client.post("/api/games", data="x" * 100_000, content_type="application/json")
    assert response.status_code == 413 and "error" in response.get_json()


def test_serve_prints_a_qr_code():
    qr = serving.terminal_qr("http://192.168.1.20:5000/")
    assert len(qr.splitlines()) > 10 and ("█" in qr or "▀" in qr)


# --- fuzzing the JSON API -----------------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.text(max_size=12)
    | st.sampled_from(PLAYERS + ["K 7", "JKR"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "player",
                    "went_out",
                    "caught",
                    "ruleset",
                    "players",
                    "round",
                    "stage",
                    "melds",
                    "onto",
                    "version",
                    "event",
                    "pin",
                    "sides",
                    "teams",
                    "night",
                    "penny_cents",
                    "first_dealer",
                    "Ann",
                    "Bob",
                    "hands",
                    "books",
                ]
            ),
            children,
            max_size=5,
        )
    ),
    max_leaves=12,
)
ENDPOINTS = [
    "POST /api/games",
    "POST /api/games/1/buys",
    "POST /api/games/1/rounds",
    "PUT /api/games/1/rounds/1",
    "POST /api/games/1/undo",
    "POST /api/games/1/preview",
    "POST /api/melds/check",
    "POST /api/games/1/unlock",
    "POST /api/nights",
    "POST /api/games/2/rounds",
]


@settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(ENDPOINTS), JSON)
def test_fuzzed_api_requests_never_500_and_refusals_change_nothing(api, client, endpoint, body):
    if not client.get("/api/games/1").status_code == 200:
        api.new_game()
        api.call(
            "POST",
            "/api/games",
            {"ruleset": "pennies-from-heaven", "players": PLAYERS, "teams": [["Ann", "Cy"], ["Bob", "Di"]]},
            201,
        )
        api.round(1, "Ann", {"Bob": "K", "Cy": "", "Di": ""})
    method, path = endpoint.split()
    before = [client.get(f"/api/games/{g}").get_json()["version"] for g in (1, 2)]
    response = client.open(path, method=method, json=body)
    assert response.status_code < 500, response.get_data(as_text=True)
    assert response.is_json and isinstance(response.get_json(), dict | list)
    if response.status_code >= 400:
        assert "error" in response.get_json()
        assert [client.get(f"/api/games/{g}").get_json()["version"] for g in (1, 2)] == before


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=60))
def test_fuzzed_card_text_in_forms_never_500(client, text):
    if client.get("/api/games/1").status_code != 200:
        client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS})
    response = client.get(
        "/melds", query_string={"ruleset": "ten-pennies", "round": "1", "stage": "meld", "melds-0": text}
    )
    assert response.status_code in (200, 400)


# --- a server killed in the middle of a stream of writes ----------------------------------------


def post(url, body):
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.status, json.load(response)


@pytest.mark.process
def test_killed_server_keeps_every_acknowledged_write(tmp_path):
    """Writers keep correcting a round from several threads; the server is killed (SIGKILL) while
    requests are in flight. Every write that was answered must be stored, and the file intact."""
    import threading

    port = free_port()
    server = start_server(tmp_path, port)
    base = f"http://127.0.0.1:{port}"
    status, game = post(f"{base}/api/games", {"ruleset": "ten-pennies", "players": PLAYERS})
    gid = game["id"]
    post(f"{base}/api/games/{gid}/rounds", {"went_out": "Ann", "caught": {"Bob": "", "Cy": "", "Di": ""}})
    acknowledged, unexpected, lock = [], [], threading.Lock()

    def write(worker):
        for i in range(2000):
            caught = {"Bob": "5 " * (i % 5), "Cy": "K " * worker, "Di": ""}
            body = json.dumps({"went_out": "Ann", "caught": caught}).encode()
            request = urllib.request.Request(
                f"{base}/api/games/{gid}/rounds/1",
                data=body,
                method="PUT",
                headers={"Content-Type": "application/json"},
            )
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    version = json.load(response)["version"]
            except urllib.error.HTTPError as error:
                if error.code != 409:  # 409: another writer got in first: refused whole, try again
                    with lock:
                        unexpected.append(error.code)
                continue
            except (urllib.error.URLError, ConnectionError, OSError, http.client.HTTPException):
                return  # the server is gone
            with lock:
                acknowledged.append(version)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(3)]
    for thread in threads:
        thread.start()
    deadline = time.time() + 30
    while len(acknowledged) < 40 and time.time() < deadline:
        time.sleep(0.01)
    assert len(acknowledged) >= 40
    server.send_signal(signal.SIGKILL)
    server.wait()
    for thread in threads:
        thread.join()
    assert unexpected == []  # asserted here: an assert inside a worker thread cannot fail the test
    with sqlite3.connect(tmp_path / "scorekeeper.sqlite") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = conn.execute("SELECT count(*) FROM events WHERE game_id = ?", [gid]).fetchone()[0]
    # Each answer carried the version its write made: all of them are on disk (and at most the
    # few writes in flight when the server died may be there without an answer).
    assert max(acknowledged) <= stored <= len(acknowledged) + 1 + len(threads)
    assert len(set(acknowledged)) == len(acknowledged)
    restarted = start_server(tmp_path, port)
    try:
        with urllib.request.urlopen(f"{base}/api/games/{gid}") as response:
            assert json.load(response)["version"] == stored
    finally:
        restarted.kill()
        restarted.wait()


@pytest.mark.process
def test_a_new_phone_gets_in_while_another_device_holds_a_hundred_connections(tmp_path):
    """Issue 41: about 100 connections from one device (idle kept-alive ones, or ones dripping a byte
    at a time) kept every new phone out. Each address has a bounded share: a new phone, from another
    address, is answered within a second while 127.0.0.2 holds 100 idle and dripping connections."""

    port = free_port()
    server = start_server(tmp_path, port)
    held = []
    try:
        for number in range(100):
            hog = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=("127.0.0.2", 0))
            if number % 2:
                hog.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished: a drip
            held.append(hog)
        started = time.monotonic()
        phone = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        phone.request("GET", "/healthz")
        assert phone.getresponse().status == 200
        assert time.monotonic() - started < 1
    finally:
        for hog in held:
            hog.close()
        server.terminate()
        server.wait(timeout=10)
