"""Issue 39, derived data in the write: the opt-in rating is brought up to date by the worker the
writes nudge, never by a page (working it out from every game took a page 0.9–2 s at 10,000 games,
and every page opened meanwhile did it too)."""

from __future__ import annotations

import threading
from pathlib import Path

from support import Api, make_app

from scorekeeper.commands.ratings import RatingWorker
from scorekeeper.store import Store, records

CAUGHT = {"Bob": "K", "Cy": "", "Di": "5"}


def play_a_game(api: Api) -> None:
    game_id = api.new_game()["id"]
    for _ in range(7):
        api.round(game_id, "Ann", CAUGHT)


def worker_of(api: Api) -> RatingWorker:
    worker: RatingWorker = api.client.application.extensions["ratings"]
    return worker


def ann(api: Api) -> dict:
    return api.call("GET", "/api/players/1")


def test_a_game_that_ends_is_rated_with_no_page_opened(tmp_path: Path):
    api = Api(make_app(tmp_path, RATING=True).test_client())
    play_a_game(api)
    assert worker_of(api).wait(60)
    workers = [thread for thread in threading.enumerate() if thread.name == "ratings"]  # one per app
    assert workers and all(thread.daemon for thread in workers)  # a server that stops is never held by one
    store = Store(api.client.application.config["DATABASE"])
    assert not records.ratings_stale(store)
    assert (rating := records.rating(store, 1)) is not None and rating.games == 1
    assert ann(api)["rating"]["up_to_date"] is True


def house_switching_the_rating_on(folder: Path) -> Api:
    """A game played while the house had the rating off; then the house switches it on: the rating is
    stale, and nothing has nudged the worker yet."""
    play_a_game(Api(make_app(folder).test_client()))
    return Api(make_app(folder, RATING=True).test_client())


def test_a_page_shows_the_rating_as_last_kept_and_leaves_the_counting_to_the_worker(tmp_path: Path):
    """The first page answers at once with the rating as kept (none yet: a new player's) and says it
    is being worked out; the worker it nudged counts the games."""
    api = house_switching_the_rating_on(tmp_path)
    assert "after 0 rated games; the latest games are being counted" in api.client.get("/players/1").text
    assert worker_of(api).wait(60)
    assert "being counted" not in api.client.get("/players/1").text


def test_the_api_says_whether_the_rating_is_up_to_date(tmp_path: Path):
    api = house_switching_the_rating_on(tmp_path)
    first = ann(api)["rating"]
    assert first["up_to_date"] is False and first["games"] == 0
    assert worker_of(api).wait(60)
    rating = ann(api)["rating"]
    assert (rating["left_out"], rating["games"], rating["up_to_date"]) == (False, 1, True)


def test_leaving_a_player_out_is_a_write_through_the_runner_and_recounts(tmp_path: Path):
    from support import csrf_token

    api = Api(make_app(tmp_path, RATING=True).test_client())
    play_a_game(api)
    form = {"csrf_token": csrf_token(api.client.get("/players/4").text), "rated": "0"}
    assert api.client.post("/players/4/rating", data=form).status_code == 302
    assert worker_of(api).wait(60)
    assert api.call("GET", "/api/players/4")["rating"] == {"left_out": True}
    assert ann(api)["rating"]["games"] == 1 and ann(api)["rating"]["up_to_date"] is True
    assert api.client.post("/players/99/rating", data=form).status_code == 404


def test_a_rating_that_cannot_be_worked_out_is_logged_and_tried_again(tmp_path: Path, monkeypatch, caplog):
    """The host reads why in the log; the next write (its nudge) tries again, and the rating catches up."""
    import scorekeeper.commands.ratings as ratings

    working = ratings.bring_up_to_date
    tries: list[int] = []

    def fails_once(store, catalog):
        tries.append(1)
        if len(tries) == 1:
            raise OSError("disk I/O error")
        working(store, catalog)

    monkeypatch.setattr(ratings, "bring_up_to_date", fails_once)
    api = Api(make_app(tmp_path, RATING=True).test_client())
    play_a_game(api)
    assert worker_of(api).wait(60)
    (said,) = [record for record in caplog.records if record.name == ratings.log.name]
    assert said.getMessage() == "the rating could not be worked out" and "disk I/O error" in caplog.text
    play_a_game(api)
    assert worker_of(api).wait(60)
    assert ann(api)["rating"]["games"] == 2 and ann(api)["rating"]["up_to_date"] is True
