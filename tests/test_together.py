"""Nothing lost, nothing impossible when things happen together: backups, exports and imports run
beside a serving server, requests racing for the same entry, a server stopped mid-write."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from support import PLAYERS, HttpClient, free_port, make_app, start_server


def cli(instance: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`flask --app scorekeeper …` as a person runs it beside the server, on the same instance."""
    flask = Path(sys.executable).with_name("flask")
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(instance)}
    return subprocess.run(
        [str(flask), "--app", "scorekeeper", *args], env=env, capture_output=True, text=True, timeout=60
    )


def export_with_high_ids(folder: Path, offset: int) -> Path:
    """An export of one short game from another database, its ids moved past this one's."""
    app = make_app(folder)
    client = app.test_client()
    game = client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS}).get_json()
    client.post(f"/api/games/{game['id']}/buys", json={"player": "Bob"})
    data = client.get(f"/games/{game['id']}/export.json").get_json()
    for item in data["games"]:
        item["id"] += offset
        for event in item["events"]:
            event["id"] += offset
    path = folder / "export.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


class Writers:
    """Eight threads entering rounds through a real server, each into games of its own (a new game
    when one is over); every write the server answered is kept as (game, version it made)."""

    def __init__(self, port: int, threads: int = 8) -> None:
        self.port = port
        self.acknowledged: dict[int, int] = {}
        self.unexpected: list[Any] = []
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.write) for _ in range(threads)]

    def write(self) -> None:
        client = HttpClient(self.port, timeout=10)
        game_id: int | None = None
        rounds = 0
        body: dict[str, object]
        while not self.stop.is_set():
            if game_id is None or rounds == 7:
                path, body = "/api/games", {"ruleset": "ten-pennies", "players": PLAYERS}
            else:
                caught = {"Bob": "K 5", "Cy": "", "Di": "7"}
                path, body = f"/api/games/{game_id}/rounds", {"went_out": "Ann", "caught": caught}
            try:
                status, answer = client.call("POST", path, body)
            except Exception:  # noqa: BLE001 - the server is gone (OSError, or http.client's errors mid-answer)
                return
            if status >= 400:
                with self.lock:
                    self.unexpected.append((status, answer[:200]))
                return
            state = json.loads(answer)
            game_id, rounds = state["id"], len(state["rounds"])
            with self.lock:
                self.acknowledged[game_id] = state["version"]

    def __enter__(self) -> Writers:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join()

    def acknowledged_count(self) -> int:
        with self.lock:
            return sum(self.acknowledged.values()) + len(self.acknowledged)


def stored_versions(instance: Path, game_ids: list[int]) -> dict[int, int]:
    with sqlite3.connect(instance / "scorekeeper.sqlite") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return {gid: conn.execute("SELECT revision FROM games WHERE id = ?", [gid]).fetchone()[0] for gid in game_ids}


def wait_for(condition: Any, seconds: float = 30) -> None:
    deadline = time.time() + seconds
    while not condition() and time.time() < deadline:
        time.sleep(0.02)
    assert condition()


@pytest.mark.process
@pytest.mark.parametrize("stop_with", [signal.SIGTERM, signal.SIGKILL])
def test_backup_export_and_import_beside_a_serving_server_lose_no_acknowledged_write(tmp_path, stop_with):
    """The README says a backup is safe while the app runs: the server writes on 8 threads while
    backup, export and import run from the command line; the server is then stopped and started
    again, and every write it answered is still there."""
    instance = tmp_path / "instance"
    instance.mkdir()
    to_import = export_with_high_ids(tmp_path / "elsewhere", offset=1_000_000)
    port = free_port()
    server = start_server(instance, port)
    try:
        with Writers(port) as writers:
            wait_for(lambda: writers.acknowledged_count() > 40 or bool(writers.unexpected))
            assert writers.unexpected == []
            for args in (
                ("backup", str(tmp_path / "copy.sqlite")),
                ("export", str(tmp_path / "all.json")),
                ("import", str(to_import)),
                ("backup", str(tmp_path / "copy2.sqlite")),
            ):
                done = cli(instance, *args)
                assert done.returncode == 0, done.stderr
            before = writers.acknowledged_count()
            wait_for(lambda: writers.acknowledged_count() > before + 20)
            server.send_signal(stop_with)
            server.wait(timeout=30)
        assert writers.unexpected == []
        acknowledged = dict(writers.acknowledged)
        stored = stored_versions(instance, list(acknowledged))
        for game_id, version in acknowledged.items():
            # SIGKILL may leave at most the one write in flight stored without its answer.
            assert version <= stored[game_id] <= version + 1, (game_id, version, stored[game_id])
        server = start_server(instance, port)
        client = HttpClient(port)
        for game_id, version in acknowledged.items():
            assert client.json("GET", f"/api/games/{game_id}")["version"] >= version
        assert client.json("GET", "/api/games/1000001")["version"] == 1  # the import is there too
    finally:
        server.kill()
        server.wait()


# --- check, then write: what is checked is what is stored ------------------------------------------


def write(app, command):
    """A command as a request that read the game before another request wrote runs it: through the
    one runner, with the version it carries."""
    from scorekeeper.commands import TRUSTED, run
    from scorekeeper.store import Store

    return run(Store(app.config["DATABASE"]), app.extensions["rulesets"], command, TRUSTED)


def test_an_eleventh_buy_checked_against_the_game_before_the_tenth_is_refused(app, api):
    """Two phones tap Ann's buy at once with 9 used: each request loaded the game with 9; the one
    that writes second must be checked against 10, whatever version it carries."""
    from scorekeeper.commands.games import RecordBuy
    from scorekeeper.rules.setup import GameError

    gid = api.new_game()["id"]
    for _ in range(9):
        api.buy(gid, "Ann")
    tenth = api.buy(gid, "Ann")
    with pytest.raises(GameError, match="11th buy is refused"):
        write(app, RecordBuy(game_id=gid, version=tenth["version"], player="Ann"))
    state = api.call("GET", f"/api/games/{gid}")
    assert state["version"] == 10 and state["problems"] == []
    assert [p["buys_left"] for p in state["players"] if p["name"] == "Ann"] == [0]


def test_a_second_new_round_2_is_refused_never_stored_as_a_correction(app, api):
    from scorekeeper.commands.games import AlreadyRecorded, RecordRound

    gid = api.new_game()["id"]
    api.round(gid, "Ann", {"Bob": "K", "Cy": "", "Di": ""})
    saved = api.round(gid, "Bob", {"Ann": "5", "Cy": "", "Di": ""})
    with pytest.raises(AlreadyRecorded, match="round 2 is already recorded"):
        write(
            app,
            RecordRound(
                game_id=gid,
                version=saved["version"],
                went_out="Cy",
                caught={"Ann": "K K", "Bob": "", "Di": ""},
                drawn_for=2,
            ),
        )
    state = api.call("GET", f"/api/games/{gid}")
    assert [r["corrected"] for r in state["rounds"]] == [False, False]
    assert state["rounds"][1]["went_out"] == "Bob"


def test_two_undos_of_one_buy_store_one(app, api):
    from scorekeeper.commands.games import Undo
    from scorekeeper.rules.setup import GameError

    gid = api.new_game()["id"]
    api.buy(gid, "Bob")
    buy_id = api.call("GET", f"/api/games/{gid}/history")[-1]["id"]
    undone = api.call("POST", f"/api/games/{gid}/undo", {"event": buy_id}, 201)
    with pytest.raises(GameError, match="nothing to undo"):
        write(app, Undo(game_id=gid, version=undone["version"], event_id=buy_id))
    assert api.call("GET", f"/api/games/{gid}")["version"] == 2


def test_a_game_with_an_impossible_history_loads_and_says_what_is_wrong(app, api, client):
    """Entries stored by an earlier version while two devices raced (11 buys, two undos of one buy):
    every page around the game answers, and the game page names the entries the rules refuse."""
    from scorekeeper.store import Store

    night = api.call("POST", "/api/nights", {}, 201)["id"]
    gid = api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": PLAYERS, "night": night}, 201)["id"]
    store = Store(app.config["DATABASE"])
    for version in range(11):  # straight into the store, as the race did: past the engine's checks
        store.append_event(gid, "buy", {"round": 1, "player": "Ann"}, version, store.next_event_id())
    first_buy = store.events(gid)[0]["id"]
    for version in (11, 12):
        store.append_event(gid, "void", {"target": first_buy}, version, store.next_event_id())
    eleventh = store.events(gid)[10]["id"]
    second_undo = store.events(gid)[12]["id"]
    page = client.get(f"/games/{gid}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert f"entry {eleventh}: Ann has used all 10 buys" in text
    assert f"entry {second_undo}: there is nothing to undo" in text
    state = api.call("GET", f"/api/games/{gid}")
    assert [p["entry"] for p in state["problems"]] == [eleventh, second_undo]
    assert state["bowl"] == 9  # 11 buys stored, the 11th and one undo passed over
    ann = store.player_id("Ann")
    for path in (
        f"/games/{gid}/table",
        f"/games/{gid}/history",
        f"/nights/{night}",
        f"/api/nights/{night}",
        f"/games/{gid}/export.json",
        f"/games/{gid}/export.csv",
        f"/games/{gid}/scorepad.pdf",
        "/players",
        f"/players/{ann}",
        f"/nights/{night}/export.json",
        f"/nights/{night}/summary.pdf",
        f"/api/games/{gid}/history",
    ):
        assert client.get(path).status_code == 200, path
    # and it can be played on: the next entry is checked against the game as shown
    api.buy(gid, "Bob")


def released_together(port: int, requests: list[tuple[str, str, dict[str, Any]]]) -> list[int]:
    """Each request from its own connection, all released at once; their statuses."""
    clients = [HttpClient(port) for _ in requests]
    barrier = threading.Barrier(len(requests))
    statuses: list[int] = [0] * len(requests)

    def send(i: int) -> None:
        method, path, body = requests[i]
        barrier.wait()
        statuses[i] = clients[i].call(method, path, body)[0]

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


TRIALS = 25


@pytest.mark.process
def test_racing_requests_store_no_impossible_history(tmp_path):
    """25 trials of each race against a real waitress server, threads released together, each
    request carrying the version it read: a 10th and an 11th buy, round 2 twice, two undos of one
    buy. Exactly one of each pair is stored, and every game loads with nothing the rules refuse."""
    port = free_port()
    server = start_server(tmp_path, port)
    try:
        client = HttpClient(port)
        for _ in range(TRIALS):
            gid = client.json("POST", "/api/games", {"ruleset": "ten-pennies", "players": PLAYERS})["id"]
            for _ in range(9):
                version = client.json("POST", f"/api/games/{gid}/buys", {"player": "Ann"})["version"]
            buy = ("POST", f"/api/games/{gid}/buys", {"player": "Ann", "version": version})
            assert sorted(released_together(port, [buy, buy, buy])) == [201, 409, 409]

            first = {"went_out": "Ann", "caught": {"Bob": "5", "Cy": "", "Di": ""}}
            version = client.json("POST", f"/api/games/{gid}/rounds", first)["version"]
            second = {"went_out": "Bob", "caught": {"Ann": "K", "Cy": "", "Di": ""}, "round": 2, "version": version}
            other = {**second, "went_out": "Cy", "caught": {"Ann": "", "Bob": "Q", "Di": ""}}
            statuses = released_together(port, [("POST", f"/api/games/{gid}/rounds", body) for body in (second, other)])
            assert sorted(statuses) == [201, 409]

            version = client.json("POST", f"/api/games/{gid}/buys", {"player": "Bob"})["version"]
            buy_id = client.json("GET", f"/api/games/{gid}/history")[-1]["id"]
            undo = ("POST", f"/api/games/{gid}/undo", {"event": buy_id, "version": version})
            assert sorted(released_together(port, [undo, undo])) == [201, 409]

            state = client.json("GET", f"/api/games/{gid}")
            assert state["problems"] == []
            assert len(state["rounds"]) == 2 and not any(r["corrected"] for r in state["rounds"])
            assert {p["name"]: p["buys_left"] for p in state["players"]}["Ann"] == 0
            assert {p["name"]: p["buys_left"] for p in state["players"]}["Bob"] == 10
            assert client.call("GET", f"/games/{gid}")[0] == 200
    finally:
        server.kill()
        server.wait()


# --- locks without gaps ----------------------------------------------------------------------------


def start_in_night_page(client, night: int, pin: str, page: str | None = None):
    """The new-game form of a phone (drawn as ``page`` earlier, if given), sent for ``night``."""
    from support import new_game_form

    data = new_game_form(page or client.get("/games/new").text, pin, night)
    return client.post("/games/new", data=data)


def test_two_phones_locking_one_night_at_once_leave_one_pin_and_the_other_phone_locked_out(app, api):
    """Both phones opened the new-game form while the night had no PIN; A starts its game with
    PIN 1111, then B sends its form with PIN 2222: B is refused (the night has A's PIN now), and B
    is not unlocked for a PIN it never knew."""
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    phone_a, phone_b = app.test_client(), app.test_client()
    b_page = phone_b.get("/games/new").text
    assert start_in_night_page(phone_a, night, "1111").status_code == 302
    refused = start_in_night_page(phone_b, night, "2222", page=b_page)
    assert refused.status_code == 400
    assert f"night {night} is locked" in refused.text
    games = api.call("GET", f"/api/nights/{night}")["games"]
    assert len(games) == 1
    game = games[0]["id"] if isinstance(games[0], dict) else games[0]
    from support import csrf_token

    token = csrf_token(phone_b.get("/games/new").text)
    buy = phone_b.post(f"/games/{game}/buys", data={"player": "Bob", "csrf_token": token})
    assert buy.status_code == 302 and "/unlock" in buy.headers["Location"]  # B is not the scorekeeper
    assert api.call("POST", f"/api/nights/{night}/unlock", {"pin": "2222"}, 403)
    assert api.call("POST", f"/api/nights/{night}/unlock", {"pin": "1111"})["locked"] is True


def test_a_game_started_in_a_night_locked_meanwhile_is_refused(app, api):
    """The lock is read under the write lock: one who has not opened the night the scorekeeper just
    locked (on another phone) starts nothing in it, and sets no second PIN."""
    from scorekeeper.commands import Asker, run
    from scorekeeper.commands.games import StartGame
    from scorekeeper.commands.locks import NeedsUnlock
    from scorekeeper.store import Store

    night = api.call("POST", "/api/nights", {}, 201)["id"]
    catalog = app.extensions["rulesets"]
    store = Store(app.config["DATABASE"])
    stranger = Asker(lambda lock: False, lambda lock: NeedsUnlock(f"{lock.name} is locked"))
    run(store, catalog, StartGame(ruleset_id="ten-pennies", names=PLAYERS, night_id=night, pin="1111"), stranger)
    with pytest.raises(NeedsUnlock, match=f"night {night} is locked"):
        run(store, catalog, StartGame(ruleset_id="ten-pennies", names=PLAYERS, night_id=night, pin="2222"), stranger)
    assert len(store.night_game_ids(night)) == 1


def finished_game(api, night=None, pin=None):
    from support import GAME

    body = {"ruleset": "ten-pennies", "players": PLAYERS, "first_dealer": "Ann"}
    if night is not None:
        body["night"] = night
    if pin:
        body["pin"] = pin
    gid = api.call("POST", "/api/games", body, 201)["id"]
    headers = {}
    if pin:
        headers = {"Authorization": "Bearer " + api.call("POST", f"/api/games/{gid}/unlock", {"pin": pin})["token"]}
    for went_out, caught in GAME:
        answer = api.client.post(
            f"/api/games/{gid}/rounds", json={"went_out": went_out, "caught": caught}, headers=headers
        )
        assert answer.status_code == 201, answer.text
    return gid, headers


def test_a_rematch_of_a_locked_night_s_game_keeps_the_lock_once_the_night_is_closed(app, api):
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    gid, auth = finished_game(api, night, pin="4321")
    closer = app.test_client()
    from support import csrf_token

    closer.post(
        f"/nights/{night}/unlock",
        data={"csrf_token": csrf_token(closer.get(f"/nights/{night}/unlock").text), "pin": "4321"},
    )
    token = csrf_token(closer.get(f"/nights/{night}").text)
    assert closer.post(f"/nights/{night}/close", data={"csrf_token": token}).status_code == 302
    assert api.call("GET", f"/api/nights/{night}")["closed"] is True
    # API: the new game is outside the closed night and locked with the night's PIN
    again = api.client.post(f"/api/games/{gid}/rematch", json={}, headers=auth)
    assert again.status_code == 201
    new = again.get_json()["id"]
    assert api.client.post(f"/api/games/{new}/buys", json={"player": "Bob"}).status_code == 401
    assert api.call("POST", f"/api/games/{new}/unlock", {"pin": "4321"})["locked"] is True
    # a phone without the PIN cannot change it through the pages either
    stranger = app.test_client()
    token = csrf_token(stranger.get("/games/new").text)
    buy = stranger.post(f"/games/{new}/buys", data={"player": "Bob", "csrf_token": token})
    assert "/unlock" in buy.headers["Location"]


def test_a_rematch_made_twice_is_one_game(app, api, client):
    gid, _ = finished_game(api)
    first = api.call("POST", f"/api/games/{gid}/rematch", {}, 201)["id"]
    assert api.call("POST", f"/api/games/{gid}/rematch", {}, 200)["id"] == first
    from support import csrf_token

    token = csrf_token(client.get(f"/games/{gid}").text)
    again = client.post(f"/games/{gid}/rematch", data={"csrf_token": token})
    assert again.status_code == 302, again.text[:300]
    assert again.headers["Location"].endswith(f"/games/{first}")
    assert "already started" in client.get(again.headers["Location"]).text
    assert len(api.call("GET", "/api/games/" + str(first))["players"]) == 4
    assert app.extensions["rulesets"]  # the app is intact
    from scorekeeper.store import Store

    assert Store(app.config["DATABASE"]).rematch_of(gid) == first


@pytest.mark.parametrize(
    "headers, data",
    [({}, None), ({"Content-Type": "text/plain"}, b"{}"), ({"Content-Type": "application/x-www-form-urlencoded"}, b"")],
)
def test_api_writes_a_foreign_page_can_send_without_asking_are_refused(api, client, headers, data):
    """A page of another site can POST a form, text/plain or nothing without a CORS preflight: no
    API write takes such a request, bodiless rematch included."""
    gid, _ = finished_game(api)
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    for path in (
        f"/api/games/{gid}/rematch",
        "/api/games",
        "/api/nights",
        f"/api/games/{gid}/buys",
        f"/api/nights/{night}/money",
        f"/api/games/{gid}/undo",
    ):
        answer = client.post(path, data=data, headers=headers)
        assert answer.status_code == 415, (path, answer.status_code)
        assert "Content-Type: application/json" in answer.get_json()["error"]
    from scorekeeper.store import Store

    assert Store(client.application.config["DATABASE"]).rematch_of(gid) is None
    assert len(api.call("GET", f"/api/nights/{night}")["games"]) == 0


@pytest.mark.process
def test_an_oversized_body_is_refused_from_its_length_before_it_is_sent(tmp_path):
    """A client announcing 10 MB is answered 413 at once: the server does not wait to read (or
    spool to disk) a body the app would refuse anyway."""
    import socket

    port = free_port()
    server = start_server(tmp_path, port)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
            connection.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 10000000\r\n\r\n{"
            )
            answer = connection.recv(4096)  # a timeout here: the server waits for the 10 MB
        assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
        assert HttpClient(port).call("GET", "/healthz")[0] == 200
    finally:
        server.kill()
        server.wait()
