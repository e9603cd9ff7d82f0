"""The runner every write goes through (scorekeeper/commands/runner.py)."""

from __future__ import annotations

from typing import cast

import pytest

from scorekeeper.commands import TRUSTED, Answered, Asker, EntryKey, KeyReused, run
from scorekeeper.commands.locks import Lock, NeedsUnlock
from scorekeeper.reads.catalog import Catalog
from scorekeeper.store import StaleWrite, Store


def test_an_answer_of_400_or_more_is_not_remembered(app):
    """The runner: a refused entry may be sent again once put right, so only an answer below 400 is
    kept for the key; a repeat of a kept one gets the first answer and runs nothing."""
    from scorekeeper.commands import TRUSTED, Answered, EntryKey, run
    from scorekeeper.store import Store

    class Counted:
        def __init__(self) -> None:
            self.runs = 0

        def lock(self, store: Store) -> None:
            return None

        def apply(self, store: Store, catalog: object) -> str:
            self.runs += 1
            return "ran"

    store, catalog = Store(app.config["DATABASE"]), app.extensions["rulesets"]
    for status, kept in [(201, True), (399, True), (400, False), (409, False)]:
        command, key = Counted(), EntryKey(f"api:{status}")

        def answered(_: object, status: int = status) -> tuple[int, str]:
            return status, "{}"

        for _ in range(2):
            run(store, catalog, command, TRUSTED, key, answer=answered)
        assert command.runs == (1 if kept else 2), status
        assert run(store, catalog, command, TRUSTED, key, answer=answered) == (
            Answered(status, "{}") if kept else "ran"
        )


# --- the runner's order on a store of its own: lock, entry key, version, the command, the answer ------------


class Recorded:
    """A command on game 1 that writes a note (so a rollback shows) and counts its runs."""

    def __init__(self, locked_by: Lock | None = None, version: int | None = None, fails: bool = False) -> None:
        self.locked_by, self.version, self.fails = locked_by, version, fails
        self.game_id = 1
        self.runs = 0

    def lock(self, store: Store) -> Lock | None:
        return self.locked_by

    def apply(self, store: Store, catalog: Catalog) -> str:
        self.runs += 1
        store.db.execute("UPDATE games SET notes = 'written' WHERE id = 1")
        if self.fails:
            raise ValueError("the rules refuse it")
        return "done"


NO_CATALOG = cast(Catalog, None)  # these commands never read the rulesets
GAME_LOCK = Lock("game", 1, "a hash", 0)
STRANGER = Asker(lambda lock: False, lambda lock: NeedsUnlock(f"{lock.name} is locked"))


@pytest.fixture
def store(store: Store) -> Store:
    """The store, with game 1 (Ann and Bob) in it."""
    store.create_game("ten-pennies", 1, ["Ann", "Bob"], 0, 1)
    return store


def note(store: Store) -> str:
    return store.game(1)["notes"]


def test_a_write_runs_once_and_its_answer_is_kept_under_its_key(store: Store):
    command = Recorded()
    key = EntryKey("api:k1", "digest-1")
    assert run(store, NO_CATALOG, command, TRUSTED, key, answer=lambda result: (201, f'"{result}"')) == "done"
    assert run(store, NO_CATALOG, command, TRUSTED, key) == Answered(201, '"done"')
    assert command.runs == 1 and note(store) == "written"
    kept = store.answer_for("api:k1")
    assert kept is not None and (kept["game_id"], kept["digest"], kept["status"]) == (1, "digest-1", 201)


def test_a_key_sent_again_for_another_request_is_refused(store: Store):
    run(store, NO_CATALOG, Recorded(), TRUSTED, EntryKey("api:k1", "digest-1"))
    command = Recorded()
    with pytest.raises(KeyReused):
        run(store, NO_CATALOG, command, TRUSTED, EntryKey("api:k1", "digest-2"))
    assert command.runs == 0


def test_a_locked_write_is_refused_in_the_askers_words_before_anything_runs(store: Store):
    command = Recorded(locked_by=GAME_LOCK)
    with pytest.raises(NeedsUnlock, match="^game 1 is locked$"):
        run(store, NO_CATALOG, command, STRANGER, EntryKey("api:k1", "d"))
    assert command.runs == 0 and store.answer_for("api:k1") is None
    assert run(store, NO_CATALOG, Recorded(locked_by=GAME_LOCK), TRUSTED) == "done"
    assert run(store, NO_CATALOG, Recorded(), STRANGER) == "done"  # no lock needed


def test_a_write_made_against_an_older_version_is_refused(store: Store):
    run(store, NO_CATALOG, Recorded(version=0), TRUSTED)
    store.db.execute("UPDATE games SET revision = 1 WHERE id = 1")
    command = Recorded(version=0)
    with pytest.raises(StaleWrite, match=r"^the game changed since this page was loaded \(version 0, now 1\)$"):
        run(store, NO_CATALOG, command, TRUSTED)
    assert command.runs == 0
    assert run(store, NO_CATALOG, Recorded(version=1), TRUSTED) == "done"


def test_a_refusal_in_the_command_keeps_nothing(store: Store):
    with pytest.raises(ValueError, match="the rules refuse it"):
        run(store, NO_CATALOG, Recorded(fails=True), TRUSTED, EntryKey("api:k1", "d"))
    assert note(store) == "" and store.answer_for("api:k1") is None


def test_a_form_sent_without_a_key_is_simply_recorded():
    assert EntryKey.form("") is None and EntryKey.form(None) is None
    assert EntryKey.form("a1b2") == EntryKey("form:a1b2")
    assert EntryKey.api("a1b2", "d") == EntryKey("api:a1b2", "d")


# --- a stale view, in the command's own words: decided by the runner, not by a page --------------------------


def test_a_new_round_from_a_view_its_round_was_recorded_since_is_refused_as_already_recorded(app, api):
    """Two phones Save round 1 (or Back then Save): the second, made on the version before the first,
    is refused by the runner as "round 1 is already recorded", which the page redraws as round 1's
    correction; issue 59: the round-entry view decided this a second time from the stale refusal."""
    from scorekeeper.commands.games import AlreadyRecorded, RecordRound

    game = api.new_game()
    drawn_at = game["version"]
    caught = {"Bob": "K", "Cy": "", "Di": "5"}
    api.round(game["id"], "Ann", caught)  # the first phone's Save
    store, catalog = Store(app.config["DATABASE"]), app.extensions["rulesets"]
    late = RecordRound(game_id=game["id"], version=drawn_at, went_out="Bob", caught={"Ann": "9"}, drawn_for=1)
    with pytest.raises(AlreadyRecorded) as refused:
        run(store, catalog, late, TRUSTED)
    assert refused.value.number == 1
    assert len(api.call("GET", f"/api/games/{game['id']}")["rounds"]) == 1


def test_a_new_round_from_a_view_a_buy_moved_on_is_a_stale_view_still_the_same_round(app, api):
    from scorekeeper.commands.games import RecordRound

    game = api.new_game()
    drawn_at = game["version"]
    api.buy(game["id"], "Bob")  # another phone's buy: round 1 is still the one to enter
    store, catalog = Store(app.config["DATABASE"]), app.extensions["rulesets"]
    late = RecordRound(game_id=game["id"], version=drawn_at, went_out="Ann", caught={"Bob": "K"}, drawn_for=1)
    with pytest.raises(StaleWrite):
        run(store, catalog, late, TRUSTED)
